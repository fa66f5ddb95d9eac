/**
 * Answers for the command line, compatible with ifconfig.co: `curl host` gives the bare
 * IP and a newline; /ip, /country, /country-iso, /city, /coordinates, /asn, /asn-org give
 * one field; /json (or `Accept: application/json` on `/`) gives the record. `?ip=` looks
 * up another address on all of them. Browsers still get the HTML page at `/`.
 */
import type { IpInfo } from '../../lib/record.ts';
import { invalidIp, jsonText, methodNotAllowed, text, timingHeaders, type AppRequest, type Handler } from '../http/handler.ts';
import { timedLookup } from '../lookup/timed-lookup.ts';
import { SecondHitMemo } from '../utils/bounded-map.ts';
import type { Engine } from '../lookup/engine.ts';
import { REVERSE_DNS_OFF, type HostnameAnswer, type ReverseDns } from '../reverse-dns/reverse-dns.ts';
import { hostnameMembers } from '../reverse-dns/record-hostname.ts';
import { ifconfigFields, ifconfigUserAgent } from '../../lib/ifconfig-fields.ts';

/**
 * User-Agents of command-line clients, which get plain text at `/`: shells and scripts,
 * and the router and dynamic-DNS clients ifconfig.co answers in text too (ddclient,
 * MikroTik's `/tool fetch`, the old Go client's 'Go 1.1 package http'). PowerShell names
 * itself after a Mozilla prefix (`... WindowsPowerShell/5.1`, `... PowerShell/7.4`), so it
 * is matched anywhere; tests/command-line-api.test.ts has a row for each client.
 */
const CLI_AGENT = /^(curl|wget|httpie|go-http-client|python-requests|python-urllib|libwww-perl|fetch|aria2|xh|lwp-request|okhttp|ddclient|mikrotik|go 1\.1 package http)\b|\b(?:windows)?powershell\//i;

/**
 * Whether `/` should answer plain text rather than the HTML page: asked for it, or a
 * command-line client that did not ask for JSON (an explicit `Accept: application/json`
 * wins over the User-Agent).
 */
export function wantsPlainText(req: AppRequest): boolean {
  if (wantsJson(req)) return false;
  if (CLI_AGENT.test(req.headers.get('user-agent') ?? '')) return true;
  const accept = req.headers.get('accept') ?? '';
  return /^text\/plain\b/i.test(accept.trim());
}

/** Whether `/` should answer the JSON record: `application/json` leads the Accept header. */
export function wantsJson(req: AppRequest): boolean {
  return /^application\/json\b/i.test((req.headers.get('accept') ?? '').trim());
}

const FIELDS: Record<string, (r: IpInfo) => string> = {
  '/ip': (r) => r.ip,
  '/country': (r) => r.country_name,
  '/country-iso': (r) => r.country_code,
  '/city': (r) => r.city,
  '/coordinates': (r) => `${r.latitude},${r.longitude}`,
  '/asn': (r) => r.asn,
  '/asn-org': (r) => r.asn_org,
};

/** Paths that always answer the command line (`/` does only for command-line clients): a route row each (routes.ts). */
export const COMMAND_LINE_PATHS: readonly string[] = [...Object.keys(FIELDS), '/json'];
const TEXT_PATHS: ReadonlySet<string> = new Set(COMMAND_LINE_PATHS);

/** Whether these endpoints answer the request: their paths, and `/` asked as the API (the condition of `/`'s route row). */
export const answersCommandLine = (req: AppRequest): boolean =>
  TEXT_PATHS.has(req.path) || (req.path === '/' && (wantsJson(req) || wantsPlainText(req)));

/**
 * The /json bodies of addresses asked more than once lately, oldest out first. A memo, not
 * a cache of past answers: on this path nothing of the request but the address enters the
 * record, and the memo is emptied whenever a privacy list changes (the only data that
 * changes while the process runs), so a hit is byte for byte what a fresh lookup would
 * send (which is why location_source stays 'ip').
 * An address's body is kept from its second ask (SecondHitMemo, bounded-map.ts): over
 * 10,000 distinct addresses, a body kept for every one cost throughput (see
 * docs/benchmarks.md, "The /json memo and body").
 * Server-Timing says when the memo answered. The same idea as echoip's response cache.
 */
export class JsonMemo {
  readonly #bodies: SecondHitMemo<string, string>;
  constructor(limit: number) {
    this.#bodies = new SecondHitMemo(limit);
  }

  /** The body kept for `ip`, if it was asked twice and is still among the newest. */
  get(ip: string): string | undefined {
    return this.#bodies.get(ip);
  }

  /**
   * Keeps `body` if `ip` was noted before, else notes `ip`. An address is at most 45
   * characters; longer keys (padding, zone ids) are not kept.
   */
  set(ip: string, body: string): void {
    if (ip.length <= 45) this.#bodies.offer(ip, body);
  }

  clear(): void {
    this.#bodies.clear();
  }
}

/** How many addresses the /json memo keeps, with their bodies (1.4 KB each) or noted only. */
export const JSON_MEMO_SIZE = 4096;

/**
 * A /json body: the record's JSON (as the memo keeps it: with ifconfig.co's fields of the
 * address, without what changes per request) with the host name and ifconfig.co's
 * `user_agent` (the caller's, when it sent one) spliced in before its closing brace.
 * Encoded here, once, as a Buffer: its length is then known without reading the text, and
 * node writes it beside the headers as it is, where a string was flattened with the headers
 * and encoded again, costing CPU per request (see docs/benchmarks.md, "The /json memo and body").
 */
function jsonBody(record: string, host: HostnameAnswer, req: AppRequest): Buffer {
  const agent = ifconfigUserAgent(req.headers.get('user-agent'));
  return Buffer.from(record.slice(0, -1) + hostnameMembers(host) + (agent ? `,"user_agent":${JSON.stringify(agent)}` : '') + '}\n');
}

/**
 * Creates the handler for the command-line endpoints. /json carries the host name: at once
 * when it is cached, else after the lookup (at most about a second, src/server/reverse-dns/).
 */
export function createTextEndpoints(engine: Engine, memo = new JsonMemo(JSON_MEMO_SIZE), dns: ReverseDns = REVERSE_DNS_OFF): Handler {
  let generation = engine.dataGeneration;
  return (req) => {
    const { path } = req;
    const field = FIELDS[path];
    const isJson = path === '/json' || (path === '/' && wantsJson(req));
    const isRoot = path === '/' && !isJson && wantsPlainText(req);
    if (!field && !isJson && !isRoot) return undefined;
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      return methodNotAllowed('GET, HEAD', 'Use GET here.');
    }
    const asked = req.query.get('ip');
    // The caller's own address needs no database: answer it straight away.
    if (asked === null && (isRoot || path === '/ip')) return text(200, req.clientIp);
    const ip = asked ?? req.clientIp;
    if (isJson) {
      const start = performance.now();
      if (generation !== engine.dataGeneration) {
        memo.clear();
        generation = engine.dataGeneration;
      }
      const body = memo.get(ip);
      if (body !== undefined) {
        const host = dns.cached(ip);
        const timing = timingHeaders(performance.now() - start, 'memo');
        return host ? jsonText(200, jsonBody(body, host, req), timing) : dns.lookup(ip).then((found) => jsonText(200, jsonBody(body, found, req), timing));
      }
    }
    // No request headers: they shape only the device, which these answers do not carry.
    const found = timedLookup(engine, ip);
    if (!found) return invalidIp(ip);
    const timing = timingHeaders(found.ms);
    if (isJson) {
      const { data } = found.result;
      const body = JSON.stringify(Object.assign(data, ifconfigFields(data)));
      memo.set(ip, body);
      const host = dns.cached(data.ip);
      return host ? jsonText(200, jsonBody(body, host, req), timing) : dns.lookup(data.ip).then((answer) => jsonText(200, jsonBody(body, answer, req), timing));
    }
    return text(200, isRoot ? found.result.data.ip : field!(found.result.data), timing);
  };
}
