/**
 * How requests come off and answers go onto node's wire: header access and body reading
 * for node requests, and the header lists answers start from, built once (every answer
 * that is not a page or a file carries nosniff, the deny-all CSP and CORS; HSTS behind
 * a TLS proxy). Every answer, pages included, writes all its headers in one `writeHead`.
 */
import type { IncomingMessage } from 'node:http';
import { BodyTooLarge, CORS_HEADERS, type AppResponse } from './http.ts';
import { HSTS, MACHINE_SECURITY_HEADERS } from './security-headers.ts';

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

const machineHeaders = (https: boolean): readonly string[] =>
  Object.entries({ ...MACHINE_SECURITY_HEADERS, ...CORS_HEADERS, ...(https ? { 'strict-transport-security': HSTS } : {}) }).flat();
const MACHINE_HEADERS = [machineHeaders(false), machineHeaders(true)] as const;

/** A handler-style answer as node's flat header list (security, CORS, its own, length) and a body. */
export function flatten(reply: AppResponse, https: boolean): { status: number; headers: string[]; body: string | Uint8Array } {
  const body = reply.body ?? '';
  const headers = MACHINE_HEADERS[https ? 1 : 0].slice();
  const own = reply.headers;
  if (own) for (const name in own) headers.push(name, own[name]!);
  headers.push('content-length', String(typeof body === 'string' ? Buffer.byteLength(body) : body.byteLength));
  return { status: reply.status, headers, body };
}

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
