/**
 * The HTTP entry: derives the client address, sets security headers, and hands each
 * request to the first part that claims it: health check, route handlers (API, plain
 * text), static files, the on-demand page `/`, and finally the 404 page.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { clientAddress, forwardedProtoIsHttps } from './client-ip.ts';
import type { ParsedIp } from '../lib/ip-address.ts';
import type { Config } from './config.ts';
import type { Health } from './health.ts';
import { BASE_SECURITY_HEADERS, HSTS, MACHINE_SECURITY_HEADERS, NON_HTML_CSP, withFrameAncestors } from './security-headers.ts';
import { negotiate, type StaticFile, type StaticSite } from './static-site.ts';

/** A request as route handlers see it: parsed, with the derived client address. */
export interface AppRequest {
  method: string;
  path: string;
  query: URLSearchParams;
  headers: { get(name: string): string | null };
  clientIp: string;
  /** The same address parsed; undefined only when the socket reports no usable peer. */
  clientAddress: ParsedIp | undefined;
  /** Reads the body, rejecting with BodyTooLarge past the configured limit. */
  body(): Promise<Buffer>;
  /** Headers a handler that passed the request on wants on the eventual answer. */
  responseHeaders: Record<string, string> | undefined;
}

/** What a route handler answers. */
export interface AppResponse {
  status: number;
  headers?: Record<string, string>;
  body?: string | Uint8Array;
}

/** A route handler: answers, or returns undefined to pass the request on. */
export type Handler = (req: AppRequest) => AppResponse | undefined | Promise<AppResponse | undefined>;

/** Renders an on-demand page through Astro, with locals for the page. */
export type PageRenderer = (req: IncomingMessage, res: ServerResponse, locals: App.Locals) => Promise<void>;

export class BodyTooLarge extends Error {}

export interface AppParts {
  config: Config;
  site: StaticSite;
  handlers: Handler[];
  /** What /healthz reports (health.ts). */
  health: Health;
  /** The on-demand page `/` (absent when there is no build): its renderer and its locals. */
  page?: {
    render: PageRenderer;
    /** Builds the page's locals from the request (the lookup for `/`). */
    locals: (req: AppRequest) => App.Locals | Promise<App.Locals>;
  };
}

/** Node's header access in the `get()` shape handlers use (a class: one shape, no closures per request). */
class NodeHeaders {
  private readonly req: IncomingMessage;
  constructor(req: IncomingMessage) {
    this.req = req;
  }
  get(name: string): string | null {
    const value = this.req.headers[name.toLowerCase()];
    return value === undefined ? null : Array.isArray(value) ? value.join(', ') : value;
  }
}

function readBody(req: IncomingMessage, limit: number): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const declared = Number(req.headers['content-length'] ?? 0);
    if (declared > limit) return reject(new BodyTooLarge());
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

function sendStatic(req: IncomingMessage, res: ServerResponse, file: StaticFile, status = 200): void {
  const isHtml = file.type.startsWith('text/html');
  res.setHeader('content-type', file.type);
  res.setHeader('cache-control', status === 200 ? file.cacheControl : 'no-cache');
  const csp = file.headers['content-security-policy'];
  res.setHeader('content-security-policy', csp ? (isHtml ? withFrameAncestors(csp) : csp) : NON_HTML_CSP);
  res.setHeader('vary', 'accept-encoding');
  if (status === 200) {
    res.setHeader('etag', file.etag);
    if (req.headers['if-none-match'] === file.etag) {
      res.writeHead(304).end();
      return;
    }
  }
  const { body, encoding } = negotiate(file, req.headers['accept-encoding']);
  if (encoding) res.setHeader('content-encoding', encoding);
  res.setHeader('content-length', body.length);
  res.writeHead(status);
  res.end(req.method === 'HEAD' ? undefined : body);
}

/** A JSON answer; per-visitor unless the caller says otherwise. */
export function json(status: number, value: unknown, headers: Record<string, string> = {}): AppResponse {
  return jsonText(status, JSON.stringify(value) + '\n', headers);
}

/** A JSON answer whose body is already serialized (the /json memo keeps bodies, not values). */
export function jsonText(status: number, body: string, headers: Record<string, string> = {}): AppResponse {
  return { status, headers: { 'content-type': 'application/json; charset=utf-8', 'cache-control': 'private, no-store', ...headers }, body };
}

/** A JSON error in the API's one shape: `{ error: { code, message } }`. */
export function jsonError(status: number, code: string, message: string, headers: Record<string, string> = {}): AppResponse {
  return json(status, { error: { code, message } }, headers);
}

/** Shared by every request without a query string; handlers only read it. */
const NO_QUERY: URLSearchParams = new URLSearchParams();

const SECURITY_WITH_HSTS: Readonly<Record<string, string>> = { ...BASE_SECURITY_HEADERS, 'strict-transport-security': HSTS };

/** The headers every handler answer starts with, as node's flat [name, value, ...] list. */
const machineHeaders = (https: boolean): readonly string[] => Object.entries({
  ...MACHINE_SECURITY_HEADERS,
  ...(https ? { 'strict-transport-security': HSTS } : {}),
}).flat();
const MACHINE_HEADERS = machineHeaders(false);
const MACHINE_HEADERS_HSTS = machineHeaders(true);

/** Sets the security headers on a response whose other headers are set one by one (pages, files). */
function setSecurityHeaders(res: ServerResponse, https: boolean): void {
  const security = https ? SECURITY_WITH_HSTS : BASE_SECURITY_HEADERS;
  for (const name in security) res.setHeader(name, security[name]!);
}

/**
 * Sends a handler's answer with every header written in one `writeHead` call, starting
 * from a list built once: this is the path of /ip and the API, where per-header
 * bookkeeping would cost more than the work. Handlers never name a security header; a
 * header both the handler and an earlier pass (`extra`, the rate limit's) name is sent
 * once, the handler's.
 */
function sendReply(req: IncomingMessage, res: ServerResponse, reply: AppResponse, https: boolean, extra?: Record<string, string>): void {
  const body = reply.body ?? '';
  const flat = (https ? MACHINE_HEADERS_HSTS : MACHINE_HEADERS).slice();
  const own = reply.headers;
  if (extra) for (const name in extra) if (!own || !(name in own)) flat.push(name, extra[name]!);
  if (own) for (const name in own) flat.push(name, own[name]!);
  flat.push('content-length', String(typeof body === 'string' ? Buffer.byteLength(body) : body.byteLength));
  res.writeHead(reply.status, flat);
  res.end(req.method === 'HEAD' ? undefined : body);
}

/** Builds the node request listener from its parts. */
export function createApp(parts: AppParts): (req: IncomingMessage, res: ServerResponse) => void {
  const { config, site, handlers } = parts;
  const notFoundPage = site.notFound;

  const notFound = (req: IncomingMessage, res: ServerResponse, path: string, https: boolean): void => {
    // A section may have its own 404 page (e.g. /blog/404: 'Blog Post Not Found').
    const section = /^\/[^/]+\//.exec(path)?.[0];
    const page = (section && site.get(`${section}404`)) || notFoundPage;
    if (!page) return sendReply(req, res, { status: 404, headers: { 'content-type': 'text/plain; charset=utf-8' }, body: 'Not found\n' }, https);
    setSecurityHeaders(res, https);
    sendStatic(req, res, page, 404);
  };

  /** Asks the handlers in order from `from`; synchronous until one answers with a promise. */
  function ask(appReq: AppRequest, from: number): AppResponse | undefined | Promise<AppResponse | undefined> {
    for (let i = from; i < handlers.length; i++) {
      const answer = handlers[i]!(appReq);
      if (answer instanceof Promise) return answer.then((found) => found ?? ask(appReq, i + 1));
      if (answer) return answer;
    }
    return undefined;
  }

  /** What no handler answered: static files, the page `/`, a slash redirect, the 404 page. */
  function fallThrough(req: IncomingMessage, res: ServerResponse, appReq: AppRequest, https: boolean): void | Promise<void> {
    const { path } = appReq;
    const isRead = appReq.method === 'GET' || appReq.method === 'HEAD';
    const notAllowed = () => sendReply(req, res, jsonError(405, 'method_not_allowed', `${appReq.method} is not allowed here.`, { allow: 'GET, HEAD' }), https);
    const file = site.get(path);
    if (file) {
      if (!isRead) return notAllowed();
      setSecurityHeaders(res, https);
      // The 404 pages themselves are never a success, even when asked for by name.
      return sendStatic(req, res, file, path.endsWith('/404') ? 404 : 200);
    }
    const page = parts.page;
    if (path === '/' && page) {
      if (!isRead) return notAllowed();
      return Promise.resolve(page.locals(appReq)).then((locals) => {
        setSecurityHeaders(res, https);
        res.setHeader('cache-control', 'private, no-store');
        return page.render(req, res, locals);
      });
    }
    const trimmed = path.length > 1 && path.endsWith('/') ? path.replace(/\/+$/, '') : '';
    if (trimmed && site.get(trimmed)) {
      const rawUrl = req.url!;
      const q = rawUrl.indexOf('?');
      const location = trimmed + (q === -1 ? '' : rawUrl.slice(q));
      return sendReply(req, res, { status: 301, headers: { location, 'content-type': 'text/plain; charset=utf-8' }, body: `Moved to ${location}\n` }, https);
    }
    return notFound(req, res, path, https);
  }

  /** Handles one request; returns a promise only when some part of the answer is asynchronous. */
  function handle(req: IncomingMessage, res: ServerResponse): void | Promise<void> {
    const peer = req.socket.remoteAddress ?? '';
    const headers = new NodeHeaders(req);
    const https = forwardedProtoIsHttps(peer, headers, config.trustProxy);

    const rawUrl = req.url ?? '/';
    if (!rawUrl.startsWith('/')) return sendReply(req, res, jsonError(400, 'bad_request', 'The request target must be a path.'), https);
    const q = rawUrl.indexOf('?');
    let path: string;
    try {
      const rawPath = q === -1 ? rawUrl : rawUrl.slice(0, q);
      path = rawPath.includes('%') ? decodeURIComponent(rawPath) : rawPath;
    } catch {
      return sendReply(req, res, jsonError(400, 'bad_request', 'The path is not valid percent-encoding.'), https);
    }
    if (path === '/healthz') return sendReply(req, res, parts.health.reply(headers.get('accept')), https);
    const client = clientAddress(peer, headers, config.trustProxy);
    const appReq: AppRequest = {
      method: req.method ?? 'GET',
      path,
      query: q === -1 ? NO_QUERY : new URLSearchParams(rawUrl.slice(q + 1)),
      headers,
      clientIp: client.text,
      clientAddress: client.parsed,
      body: () => readBody(req, config.bodyLimit),
      responseHeaders: undefined,
    };
    const answer = ask(appReq, 0);
    if (answer instanceof Promise) {
      return answer.then((found) => found ? sendReply(req, res, found, https, appReq.responseHeaders) : fallThrough(req, res, appReq, https));
    }
    if (answer) return sendReply(req, res, answer, https, appReq.responseHeaders);
    return fallThrough(req, res, appReq, https);
  }

  function failed(req: IncomingMessage, res: ServerResponse, error: unknown): void {
    const https = forwardedProtoIsHttps(req.socket.remoteAddress ?? '', new NodeHeaders(req), config.trustProxy);
    if (error instanceof BodyTooLarge) {
      if (!res.headersSent) sendReply(req, res, jsonError(413, 'payload_too_large', `The request body is larger than ${config.bodyLimit} bytes.`), https);
      return;
    }
    console.error('request failed:', req.method, req.url, error);
    if (!res.headersSent) sendReply(req, res, jsonError(500, 'internal', 'Something went wrong on our side.'), https);
    else res.destroy();
  }

  return (req, res) => {
    try {
      const pending = handle(req, res);
      if (pending) pending.catch((error: unknown) => failed(req, res, error));
    } catch (error) {
      failed(req, res, error);
    }
  };
}
