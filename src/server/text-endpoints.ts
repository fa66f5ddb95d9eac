/**
 * Answers for the command line, compatible with ifconfig.co: `curl host` gives the bare
 * IP and a newline; /ip, /country, /country-iso, /city, /coordinates, /asn, /asn-org give
 * one field; /json (or `Accept: application/json` on `/`) gives the record. `?ip=` looks
 * up another address on all of them. Browsers still get the HTML page at `/`.
 */
import type { IpInfo } from '../lib/record.ts';
import { json, jsonError, type AppRequest, type AppResponse, type Handler } from './app.ts';
import { CORS_HEADERS, invalidIp, serverTiming, timedLookup } from './api.ts';
import type { Engine } from './lookup/engine.ts';

/** User-Agents of command-line clients, which get plain text at `/`. */
const CLI_AGENT = /^(curl|wget|httpie|go-http-client|python-requests|python-urllib|libwww-perl|powershell|fetch|aria2|xh|lwp-request|okhttp)\b/i;

/** Whether `/` should answer plain text rather than the HTML page. */
export function wantsPlainText(req: AppRequest): boolean {
  if (CLI_AGENT.test(req.headers.get('user-agent') ?? '')) return true;
  const accept = req.headers.get('accept') ?? '';
  return /^text\/plain\b/i.test(accept.trim());
}

/** Whether `/` should answer the JSON record. */
function wantsJson(req: AppRequest): boolean {
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

/** Paths that always answer the command line (`/` does only for command-line clients). */
export const TEXT_PATHS: ReadonlySet<string> = new Set([...Object.keys(FIELDS), '/json']);

const TEXT_HEADERS = { ...CORS_HEADERS, 'content-type': 'text/plain; charset=utf-8', 'cache-control': 'private, no-store' };

const text = (body: string, extra: Record<string, string> = {}): AppResponse =>
  ({ status: 200, headers: { ...TEXT_HEADERS, ...extra }, body: body + '\n' });

/** Creates the handler for the command-line endpoints. */
export function createTextEndpoints(engine: Engine): Handler {
  return (req) => {
    const { path } = req;
    const field = FIELDS[path];
    const isJson = path === '/json' || (path === '/' && wantsJson(req));
    const isRoot = path === '/' && !isJson && wantsPlainText(req);
    if (!field && !isJson && !isRoot) return undefined;
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      return jsonError(405, 'method_not_allowed', 'Use GET here.', { ...CORS_HEADERS, allow: 'GET, HEAD' });
    }
    const asked = req.query.get('ip');
    // The caller's own address needs no database: answer it straight away.
    if (asked === null && (isRoot || path === '/ip')) return text(req.clientIp);
    const ip = asked ?? req.clientIp;
    const found = timedLookup(engine, ip, asked === null ? { headers: req.headers } : undefined);
    if (!found) return invalidIp(ip);
    const timing = { 'server-timing': serverTiming(found.ms) };
    if (isJson) return json(200, found.result.data, { ...CORS_HEADERS, ...timing });
    return text(isRoot ? found.result.data.ip : field!(found.result.data), timing);
  };
}
