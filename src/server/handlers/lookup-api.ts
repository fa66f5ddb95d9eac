/**
 * The JSON API under /api: lookup of the caller or any address, bulk lookup (JSON or
 * CSV), the browser's runtime config. Every error is `{ error: { code, message } }`
 * with a 4xx status; input never causes a 5xx.
 */
import * as z from 'zod/mini';
import { LookupRequestSchema, type LookupResponse } from '../../lib/record.ts';
import { BULK_LIMIT, type BulkResult } from '../../lib/bulk.ts';
import type { ClientConfig } from '../../lib/client-config.ts';
import { asksForCsv, csvDocument, CSV_CONTENT_TYPE } from '../../lib/csv.ts';
import { describeIssue, invalidIp, invalidIpMessage, json, jsonError, methodNotAllowed, readJson, timingHeaders, type AppRequest, type AppResponse, type Handler } from '../http/handler.ts';
import { timedLookup } from '../lookup/timed-lookup.ts';
import type { Engine } from '../lookup/engine.ts';
import { REVERSE_DNS_OFF, type ReverseDns } from '../reverse-dns/reverse-dns.ts';
import { setHostname, setHostnames } from '../reverse-dns/record-hostname.ts';

const PREFLIGHT: AppResponse = {
  status: 204,
  headers: {
    'access-control-allow-methods': 'GET, HEAD, POST, OPTIONS',
    'access-control-allow-headers': 'Content-Type, Accept',
    'access-control-max-age': '86400',
  },
};

function lookupReply(found: { result: LookupResponse; ms: number }): AppResponse {
  return json(200, found.result, timingHeaders(found.ms));
}

/** Characters of a non-string bulk input a row shows. */
const INPUT_PREVIEW = 64;

/**
 * How a bulk row names an input that is not a string: the start of its JSON. Written only
 * as far as shown: JSON.stringify would walk all of a 30,000-deep array (and overflow the
 * stack doing it) to keep 64 characters.
 */
function inputText(item: unknown): string {
  let out = '';
  const write = (value: unknown): void => {
    if (out.length >= INPUT_PREVIEW) return;
    if (Array.isArray(value)) {
      out += '[';
      value.forEach((v, i) => { if (out.length < INPUT_PREVIEW) { if (i) out += ','; write(v); } });
      out += ']';
    } else if (value !== null && typeof value === 'object') {
      out += '{';
      Object.entries(value).forEach(([k, v], i) => { if (out.length < INPUT_PREVIEW) { out += `${i ? ',' : ''}${JSON.stringify(k)}:`; write(v); } });
      out += '}';
    } else out += JSON.stringify(value) ?? '';
  };
  write(item);
  return out.slice(0, INPUT_PREVIEW);
}

const BulkBodySchema = z.union([z.array(z.unknown()), z.object({ ips: z.array(z.unknown()) })]);

const CSV_COLUMNS = ['ip', 'country_code', 'country_name', 'region', 'city', 'latitude', 'longitude', 'timezone', 'asn', 'asn_org', 'network_type', 'vpn_detected', 'hostname', 'hostname_confirmed'] as const;

/** Bulk rows as CSV: a header, then one line per input, errors in the last column. */
export function bulkCsv(rows: BulkResult[]): string {
  return csvDocument([
    ['input', ...CSV_COLUMNS, 'error'],
    ...rows.map((row) => [
      row.input,
      ...('data' in row ? CSV_COLUMNS.map((c) => row.data[c]) : CSV_COLUMNS.map(() => '')),
      'error' in row ? row.error.message : '',
    ]),
  ]);
}

/** Told of every successful lookup of the caller's own address (analytics record it). */
export type CallerLookupObserver = (req: AppRequest, record: LookupResponse['data']) => void;

/** Creates the /api handler; every record it answers carries the address's host name (`dns`). */
export function createApi(engine: Engine, clientConfig: ClientConfig, onCallerLookup?: CallerLookupObserver, dns: ReverseDns = REVERSE_DNS_OFF): Handler {
  // The same for everyone and not rate-limited (routes.ts), so shared caches may keep it.
  const configReply = json(200, clientConfig, { 'cache-control': 'public, max-age=300' });

  /** The reply with the record's host name (a cached one resolves at once). */
  async function named(found: { result: LookupResponse; ms: number }): Promise<AppResponse> {
    setHostname(found.result.data, await dns.lookup(found.result.data.ip));
    return lookupReply(found);
  }

  async function lookupCaller(req: AppRequest): Promise<AppResponse> {
    if (req.method !== 'POST') {
      const found = timedLookup(engine, req.clientIp, { headers: req.headers })!;
      onCallerLookup?.(req, found.result.data);
      return named(found);
    }
    const body = await readJson(req);
    if (!('value' in body)) return body;
    const parsed = LookupRequestSchema.safeParse(body.value);
    if (!parsed.success) return jsonError(400, 'invalid_request', describeIssue(parsed.error));
    const { ip, clientInfo, browserLocation, webrtc } = parsed.data;
    const target = ip?.trim() || req.clientIp;
    const found = timedLookup(engine, target, { headers: req.headers, clientInfo, browserLocation, webrtc });
    if (found && target === req.clientIp) onCallerLookup?.(req, found.result.data);
    return found ? named(found) : invalidIp(target);
  }

  async function bulk(req: AppRequest): Promise<AppResponse> {
    const body = await readJson(req);
    if (!('value' in body)) return body;
    const parsed = BulkBodySchema.safeParse(body.value);
    if (!parsed.success) return jsonError(400, 'invalid_request', 'Send a JSON array of addresses, or {"ips": [...]}.');
    const inputs = Array.isArray(parsed.data) ? parsed.data : parsed.data.ips;
    if (inputs.length > BULK_LIMIT) {
      return jsonError(400, 'too_many', `At most ${BULK_LIMIT} addresses per request; this one has ${inputs.length}.`);
    }
    const start = performance.now();
    const results: BulkResult[] = inputs.map((item) => {
      const input = typeof item === 'string' ? item : inputText(item);
      const found = typeof item === 'string' ? timedLookup(engine, item) : undefined;
      return found
        ? { input, data: found.result.data }
        : { input, error: { code: 'invalid_ip', message: invalidIpMessage(input) } };
    });
    // `?hostname=0` skips the names (a bulk of new addresses can take a second for them).
    if (req.query.get('hostname') !== '0') await setHostnames(results.flatMap((row) => ('data' in row ? [row.data] : [])), dns);
    const headers = timingHeaders(performance.now() - start);
    if (asksForCsv(req.query.get('format'), req.headers.get('accept'))) {
      return {
        status: 200,
        headers: { ...headers, 'content-type': CSV_CONTENT_TYPE, 'content-disposition': 'attachment; filename="ip-lookup.csv"', 'cache-control': 'no-store' },
        body: bulkCsv(results),
      };
    }
    return json(200, { count: results.length, results }, headers);
  }

  return (req) => {
    const { path, method } = req;
    if (path !== '/api' && !path.startsWith('/api/')) return undefined;
    if (method === 'OPTIONS') return PREFLIGHT;
    const read = method === 'GET' || method === 'HEAD';
    if (path === '/api/lookup') return read || method === 'POST' ? lookupCaller(req) : methodNotAllowed('GET, HEAD, POST');
    if (path === '/api/lookup/bulk') return method === 'POST' ? bulk(req) : methodNotAllowed('POST');
    if (path === '/api/config') return read ? configReply : methodNotAllowed('GET, HEAD');
    if (path.startsWith('/api/lookup/')) {
      if (!read) return methodNotAllowed('GET, HEAD');
      const ip = path.slice('/api/lookup/'.length);
      // No headers: another address's record carries no device. Not shared all the same: the
      // answer carries this caller's RateLimit headers.
      const found = timedLookup(engine, ip);
      return found ? named(found) : invalidIp(ip);
    }
    return jsonError(404, 'not_found', `No API endpoint at ${path.slice(0, 100)}.`);
  };
}
