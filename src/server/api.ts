/**
 * The JSON API under /api: lookup of the caller or any address, bulk lookup (JSON or
 * CSV), the browser's runtime config. Every error is `{ error: { code, message } }`
 * with a 4xx status; input never causes a 5xx.
 */
import * as z from 'zod/mini';
import { LookupRequestSchema, type LookupResponse } from '../lib/record.ts';
import { BULK_LIMIT, type BulkResult } from '../lib/bulk.ts';
import type { ClientConfig } from '../lib/client-config.ts';
import { csvDocument } from '../lib/csv.ts';
import { json, jsonError, type AppRequest, type AppResponse, type Handler } from './app.ts';
import { InvalidIpError, type Engine, type LookupContext } from './lookup/engine.ts';

/** On every API answer: readable from any origin (no credentials are involved). */
export const CORS_HEADERS: Readonly<Record<string, string>> = { 'access-control-allow-origin': '*' };

/**
 * On answers that carry Server-Timing or RateLimit headers, which cross-origin scripts may
 * read only when named here (an answer without them has nothing to expose).
 */
export const EXPOSE_HEADERS: Readonly<Record<string, string>> = {
  'access-control-expose-headers': 'Server-Timing, RateLimit-Limit, RateLimit-Remaining, RateLimit-Reset, Retry-After',
};

const PREFLIGHT: AppResponse = {
  status: 204,
  headers: {
    ...CORS_HEADERS,
    'access-control-allow-methods': 'GET, HEAD, POST, OPTIONS',
    'access-control-allow-headers': 'Content-Type, Accept',
    'access-control-max-age': '86400',
  },
};

/** Looks an address up and times it for Server-Timing; undefined when the address is invalid. */
export function timedLookup(engine: Engine, ip: string, ctx?: LookupContext): { result: LookupResponse; ms: number } | undefined {
  const start = performance.now();
  try {
    const result = engine.lookup(ip, ctx);
    return { result, ms: performance.now() - start };
  } catch (error) {
    if (error instanceof InvalidIpError) return undefined;
    throw error;
  }
}

/**
 * Server-Timing with the lookup's own duration (`memo` when the /json memo answered
 * instead), readable cross-origin by fetch and by Resource Timing.
 */
export const timingHeaders = (ms: number, by: 'lookup' | 'memo' = 'lookup'): Record<string, string> => ({
  ...EXPOSE_HEADERS,
  'timing-allow-origin': '*',
  'server-timing': `lookup;dur=${ms.toFixed(3)};desc="${by === 'memo' ? 'IP lookup (memo)' : 'IP lookup'}"`,
});

/** Why an input is not an address, the same words in every endpoint and bulk row. */
export const invalidIpMessage = (ip: string): string => `"${ip.slice(0, 64)}" is not a valid IPv4 or IPv6 address.`;

/** The 400 answer for an input that is not an address. */
export const invalidIp = (ip: string): AppResponse => jsonError(400, 'invalid_ip', invalidIpMessage(ip), CORS_HEADERS);

function lookupReply(found: { result: LookupResponse; ms: number }, cacheControl = 'private, no-store'): AppResponse {
  return json(200, found.result, { ...CORS_HEADERS, ...timingHeaders(found.ms), 'cache-control': cacheControl });
}

async function readJson(req: AppRequest): Promise<{ value: unknown } | AppResponse> {
  const text = (await req.body()).toString('utf8');
  try {
    return { value: JSON.parse(text) };
  } catch {
    return jsonError(400, 'bad_json', 'The request body is not valid JSON.', CORS_HEADERS);
  }
}

const describeIssue = (error: z.core.$ZodError): string => {
  const issue = error.issues[0];
  return issue ? `${issue.path.join('.') || 'body'}: ${issue.message}` : 'The request body does not have the expected shape.';
};

const BulkBodySchema = z.union([z.array(z.unknown()), z.object({ ips: z.array(z.unknown()) })]);

const CSV_COLUMNS = ['ip', 'country_code', 'country_name', 'region', 'city', 'latitude', 'longitude', 'timezone', 'asn', 'asn_org', 'network_type', 'vpn_detected'] as const;

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

/** Creates the /api handler. */
export function createApi(engine: Engine, clientConfig: ClientConfig): Handler {
  const configReply = json(200, clientConfig, { ...CORS_HEADERS, 'cache-control': 'public, max-age=300' });

  async function lookupCaller(req: AppRequest): Promise<AppResponse> {
    if (req.method !== 'POST') {
      return lookupReply(timedLookup(engine, req.clientIp, { headers: req.headers })!);
    }
    const body = await readJson(req);
    if (!('value' in body)) return body;
    const parsed = LookupRequestSchema.safeParse(body.value);
    if (!parsed.success) return jsonError(400, 'invalid_request', describeIssue(parsed.error), CORS_HEADERS);
    const { ip, clientInfo, browserLocation, webrtc } = parsed.data;
    const target = ip?.trim() || req.clientIp;
    const found = timedLookup(engine, target, { headers: req.headers, clientInfo, browserLocation, webrtc });
    return found ? lookupReply(found) : invalidIp(target);
  }

  async function bulk(req: AppRequest): Promise<AppResponse> {
    const body = await readJson(req);
    if (!('value' in body)) return body;
    const parsed = BulkBodySchema.safeParse(body.value);
    if (!parsed.success) return jsonError(400, 'invalid_request', 'Send a JSON array of addresses, or {"ips": [...]}.', CORS_HEADERS);
    const inputs = Array.isArray(parsed.data) ? parsed.data : parsed.data.ips;
    if (inputs.length > BULK_LIMIT) {
      return jsonError(400, 'too_many', `At most ${BULK_LIMIT} addresses per request; this one has ${inputs.length}.`, CORS_HEADERS);
    }
    const start = performance.now();
    const results: BulkResult[] = inputs.map((item) => {
      const input = typeof item === 'string' ? item : JSON.stringify(item) ?? '';
      const found = typeof item === 'string' ? timedLookup(engine, item) : undefined;
      return found
        ? { input, data: found.result.data }
        : { input, error: { code: 'invalid_ip', message: invalidIpMessage(input) } };
    });
    const headers = { ...CORS_HEADERS, ...timingHeaders(performance.now() - start) };
    const wantsCsv = req.query.get('format') === 'csv' || /\btext\/csv\b/.test(req.headers.get('accept') ?? '');
    if (wantsCsv) {
      return {
        status: 200,
        headers: { ...headers, 'content-type': 'text/csv; charset=utf-8', 'content-disposition': 'attachment; filename="ip-lookup.csv"', 'cache-control': 'no-store' },
        body: bulkCsv(results),
      };
    }
    return json(200, { count: results.length, results }, headers);
  }

  const methodNotAllowed = (allow: string) =>
    jsonError(405, 'method_not_allowed', `Use ${allow.replace(', HEAD', '')} here.`, { ...CORS_HEADERS, allow });

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
      // No headers: another address's record carries no device and does not depend on the
      // caller, so it may be shared for an hour.
      const found = timedLookup(engine, ip);
      return found ? lookupReply(found, 'public, max-age=3600') : invalidIp(ip);
    }
    return jsonError(404, 'not_found', `No API endpoint at ${path.slice(0, 100)}.`, CORS_HEADERS);
  };
}
