/**
 * How requests come off and answers go onto node's wire: header access and body reading
 * for node requests, and the header lists answers start from, built once (every answer
 * that is not a page or a file carries nosniff, the deny-all CSP and the data credit's Link,
 * CORS when it says `cors: true`; HSTS behind a TLS proxy). The hot path of /ip and the API writes all headers in one `writeHead`.
 */
import type { IncomingMessage } from 'node:http';
import { BodyTooLarge, CORS_HEADERS, type AppResponse } from './handler.ts';
import { BASE_SECURITY_HEADERS, HSTS, MACHINE_SECURITY_HEADERS } from './security-headers.ts';
import { DATA_CREDIT_HEADERS } from './data-credit.ts';

/** Node's header access in the `get()` shape handlers use (a class: one shape, no closures per request). */
export class NodeHeaders {
  private readonly req: IncomingMessage;
  constructor(req: IncomingMessage) {
    this.req = req;
  }
  get(name: string): string | null {
    const value = this.req.headers[name.toLowerCase()];
    return value === undefined ? null : Array.isArray(value) ? value.join(', ') : value;
  }
}

/** Reads a node request's body, rejecting with BodyTooLarge past `limit` bytes. */
export function readBody(req: IncomingMessage, limit: number): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    if (Number(req.headers['content-length'] ?? 0) > limit) return reject(new BodyTooLarge());
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > limit) {
        req.removeAllListeners('data');
        req.resume();
        reject(new BodyTooLarge());
      } else chunks.push(chunk);
    });
    req.on('end', () => resolve(Buffer.concat(chunks)));
    req.on('error', reject);
  });
}

const machineHeaders = (https: boolean, cors: boolean): readonly string[] =>
  Object.entries({ ...MACHINE_SECURITY_HEADERS, ...DATA_CREDIT_HEADERS, ...(cors ? CORS_HEADERS : {}), ...(https ? { 'strict-transport-security': HSTS } : {}) }).flat();
/** By [https][cors]. */
const MACHINE_HEADERS = [[machineHeaders(false, false), machineHeaders(false, true)], [machineHeaders(true, false), machineHeaders(true, true)]] as const;

/** A handler-style answer as node's flat header list (security, CORS, its own, length) and a body. */
export function flatten(reply: AppResponse, https: boolean): { status: number; headers: string[]; body: string | Uint8Array } {
  const body = reply.body ?? '';
  const headers = MACHINE_HEADERS[https ? 1 : 0][reply.cors === true ? 1 : 0].slice();
  const own = reply.headers;
  if (own) for (const name in own) headers.push(name, own[name]!);
  headers.push('content-length', String(typeof body === 'string' ? Buffer.byteLength(body) : body.byteLength));
  return { status: reply.status, headers, body };
}

/** The page `/`: the document security set; per visitor, so never stored. */
const PAGE_HEADERS: Readonly<Record<string, string>> = { ...BASE_SECURITY_HEADERS, 'cache-control': 'private, no-store' };
/** The headers of the page `/`, with HSTS behind a TLS proxy. */
export const pageHeaders: readonly [Readonly<Record<string, string>>, Readonly<Record<string, string>>] =
  [PAGE_HEADERS, { ...PAGE_HEADERS, 'strict-transport-security': HSTS }];

/** A file's flat header list with HSTS added behind a TLS proxy. */
export const withHsts = (headers: string[], https: boolean): string[] => https ? [...headers, 'strict-transport-security', HSTS] : headers;

/** What an in-process request may say (app.request()). */
export interface RequestInit { method?: string; headers?: Record<string, string>; body?: string | Buffer; peer?: string }

/** An in-process request's parts, shaped as a socket's would be. */
export function inProcessRequest(init: RequestInit, bodyLimit: number) {
  const given = new Map(Object.entries(init.headers ?? {}).map(([k, v]) => [k.toLowerCase(), v]));
  const raw = Buffer.from(init.body ?? '');
  return {
    method: (init.method ?? 'GET').toUpperCase(),
    headers: { get: (name: string) => given.get(name.toLowerCase()) ?? null },
    peer: init.peer ?? '127.0.0.1',
    body: async () => {
      if (raw.length > bodyLimit) throw new BodyTooLarge();
      return raw;
    },
  };
}

/** An answer on the wire (status, flat headers, body) as a fetch Response. */
export function toResponse(method: string, wire: { status: number; headers: readonly string[]; body: string | Uint8Array | undefined }): Response {
  const headers = new Headers();
  for (let i = 0; i < wire.headers.length; i += 2) headers.append(wire.headers[i]!, wire.headers[i + 1]!);
  const empty = method === 'HEAD' || wire.status === 204 || wire.status === 304 || wire.body === undefined;
  return new Response(empty ? null : (wire.body as Uint8Array<ArrayBuffer> | string), { status: wire.status, headers });
}
