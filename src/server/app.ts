/**
 * The HTTP entry, dispatch only: derives the client address and hands each request to
 * the first part that claims it: health check, route handlers (API, plain text),
 * static files, the on-demand pages (`/`, `/lookup/{ip}`), a trailing-slash redirect, the 404 page.
 * `createApp` returns the node:http listener, which also answers in-process through
 * `app.request()` (no port: handler tests run that way, as with Hono's `app.request()`).
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { clientAddress, forwardedProtoIsHttps } from './client-ip.ts';
import type { Config } from './config.ts';
import type { Health } from './health.ts';
import { BodyTooLarge, firstAnswer, jsonError, methodNotAllowed, text, type AppRequest, type AppResponse, type Handler } from './http.ts';
import { oneLine } from './log.ts';
import { answerFile, slashRedirect, type FileAnswer, type StaticSite } from './static-site.ts';
import { flatten, inProcessRequest, NodeHeaders, pageHeaders, readBody, toResponse, withHsts, type RequestInit } from './wire.ts';
import type { ShellAnswer } from './shell/answer.ts';

/** Renders an on-demand page through Astro, with locals for the page. */
export type PageRenderer = (req: IncomingMessage, res: ServerResponse, locals: App.Locals) => Promise<void>;

export interface AppParts {
  config: Config;
  site: StaticSite;
  handlers: Handler[];
  /** What /healthz reports (health.ts). */
  health: Health;
  /** The on-demand pages (absent when there is no build): which paths, their renderer, locals and shell (shell/). */
  page?: { render: PageRenderer; locals: (req: AppRequest) => App.Locals | Promise<App.Locals>; handles: (path: string) => boolean; shell?: ShellAnswer };
}

/** A request as dispatch sees it, from a socket or in-process. */
interface Incoming { method: string; url: string; headers: AppRequest['headers']; peer: string; body(): Promise<Buffer> }

/** What dispatch decided besides a handler-style answer: a file, or the page to render. */
class FileReply { readonly file: FileAnswer; constructor(file: FileAnswer) { this.file = file; } }
/** A page to answer: its path, its locals, and when its lookup began (Server-Timing). */
class PageReply { readonly path: string; readonly locals: App.Locals; readonly started: number; constructor(path: string, locals: App.Locals, started: number) { this.path = path; this.locals = locals; this.started = started; } }
type Reply = AppResponse | FileReply | PageReply;

/** The node:http listener, which also answers in-process. */
export interface AppListener {
  (req: IncomingMessage, res: ServerResponse): void;
  /**
   * Answers without a socket, as the listener would; `peer` is the socket address the
   * request comes from (default 127.0.0.1). A page Astro renders per request (one without
   * a shell, or a `/lookup/{ip}` that is not an address) renders only into node's
   * response, so it answers 501 here: test it over a socket.
   */
  request(path: string, init?: RequestInit): Promise<Response>;
}

/** Shared by every request without a query string; handlers only read it. */
const NO_QUERY: URLSearchParams = new URLSearchParams();
/** The answer to a client whose address is unknown (client-ip.ts): nothing is looked up, limited or granted for it. */
const UNKNOWN_CLIENT_ANSWER = jsonError(400, 'unknown_client',
  'Your address could not be determined: a proxy in front of this server named a hop that is not an address.');
const notAllowed = (method: string) => methodNotAllowed('GET, HEAD', `${method} is not allowed here.`);

/** Builds the listener from its parts. */
export function createApp(parts: AppParts): AppListener {
  const { config, site, handlers, page, health } = parts;

  /** What no handler answered: static files, the on-demand pages, a slash redirect, the 404 page. */
  function fallThrough(inc: Incoming, path: string, appReq: AppRequest): Reply | Promise<Reply> {
    const isRead = inc.method === 'GET' || inc.method === 'HEAD';
    const fileRequest = { method: inc.method, ifNoneMatch: inc.headers.get('if-none-match') ?? undefined, acceptEncoding: inc.headers.get('accept-encoding') ?? undefined };
    const file = site.get(path);
    if (file) return isRead ? new FileReply(answerFile(file, fileRequest, path.endsWith('/404'))) : notAllowed(inc.method);
    if (page?.handles(path)) {
      if (!isRead) return notAllowed(inc.method);
      const started = performance.now();
      const locals = page.locals(appReq);
      return locals instanceof Promise ? locals.then((l) => new PageReply(path, l, started)) : new PageReply(path, locals, started);
    }
    const q = inc.url.indexOf('?');
    const location = slashRedirect(site, path, q === -1 ? '' : inc.url.slice(q + 1), page?.handles);
    if (location) return text(301, `Moved to ${location}`, { location });
    const notFound = site.notFoundPage(path);
    return notFound ? new FileReply(answerFile(notFound, fileRequest, true)) : text(404, 'Not found');
  }

  /** Decides the answer to one request; a promise only when some part of it is asynchronous. */
  function dispatch(inc: Incoming): Reply | Promise<Reply> {
    const rawUrl = inc.url;
    if (!rawUrl.startsWith('/')) return jsonError(400, 'bad_request', 'The request target must be a path.');
    const q = rawUrl.indexOf('?');
    let path: string;
    try {
      const rawPath = q === -1 ? rawUrl : rawUrl.slice(0, q);
      path = rawPath.includes('%') ? decodeURIComponent(rawPath) : rawPath;
    } catch {
      return jsonError(400, 'bad_request', 'The path is not valid percent-encoding.');
    }
    if (path === '/healthz') return health.reply(inc.headers.get('accept'));
    const client = clientAddress(inc.peer, inc.headers, config.trustProxy);
    // A trusted proxy that could not name the client: only what is the same for everyone.
    if (!client.parsed && !site.get(path)) return UNKNOWN_CLIENT_ANSWER;
    const query = q === -1 ? NO_QUERY : new URLSearchParams(rawUrl.slice(q + 1));
    const appReq: AppRequest = { method: inc.method, path, query, headers: inc.headers, clientIp: client.text, clientAddress: client.parsed, body: inc.body };
    const answer = firstAnswer(handlers, appReq);
    if (answer instanceof Promise) return answer.then((found) => found ?? fallThrough(inc, path, appReq));
    return answer ?? fallThrough(inc, path, appReq);
  }

  /** The answer to a request that failed: 413 past the body limit, else a 500 logged in one line. */
  function failure(error: unknown, method: string, url: string): AppResponse {
    if (error instanceof BodyTooLarge) return jsonError(413, 'payload_too_large', `The request body is larger than ${config.bodyLimit} bytes.`);
    console.error(`request failed: ${method} ${url.slice(0, 200)}: ${oneLine(error)}`);
    return jsonError(500, 'internal', 'Something went wrong on our side.');
  }

  /** A file or handler answer as status, flat headers and body. */
  const onWire = (reply: AppResponse | FileReply, https: boolean) => reply instanceof FileReply
    ? { ...reply.file, headers: withHsts(reply.file.headers, https) }
    : flatten(reply, https);

  /** A reply as it goes on the wire; undefined for a page only Astro can render. */
  const wireOf = (reply: Reply, method: string, acceptEncoding: string | null | undefined, https: boolean) =>
    reply instanceof PageReply ? page?.shell?.(reply.path, reply.locals, { method, acceptEncoding, https, started: reply.started }) : onWire(reply, https);

  function send(req: IncomingMessage, res: ServerResponse, reply: Reply, https: boolean): void | Promise<void> {
    const wire = wireOf(reply, req.method ?? 'GET', req.headers['accept-encoding'], https);
    if (!wire) {
      const headers = pageHeaders[https ? 1 : 0];
      for (const name in headers) res.setHeader(name, headers[name]!);
      return page!.render(req, res, (reply as PageReply).locals);
    }
    res.writeHead(wire.status, wire.headers);
    res.end(req.method === 'HEAD' ? undefined : wire.body);
  }

  const listener = (req: IncomingMessage, res: ServerResponse): void => {
    const headers = new NodeHeaders(req);
    const peer = req.socket.remoteAddress ?? '';
    const https = forwardedProtoIsHttps(peer, headers, config.trustProxy);
    const fail = (error: unknown) => {
      // A client that went away (an aborted upload) is no fault of ours: nothing to answer or log.
      if (res.headersSent || req.socket.destroyed) res.destroy();
      else void send(req, res, failure(error, req.method ?? '', req.url ?? ''), https);
    };
    try {
      const reply = dispatch({ method: req.method ?? 'GET', url: req.url ?? '/', headers, peer, body: () => readBody(req, config.bodyLimit) });
      const sent = reply instanceof Promise ? reply.then((r) => send(req, res, r, https)) : send(req, res, reply, https);
      if (sent) sent.catch(fail);
    } catch (error) {
      fail(error);
    }
  };

  async function request(path: string, init: RequestInit = {}): Promise<Response> {
    const { method, headers, peer, body } = inProcessRequest(init, config.bodyLimit);
    let reply: Reply;
    try {
      reply = await dispatch({ method, url: path, headers, peer, body });
    } catch (error) {
      reply = failure(error, method, path);
    }
    const wire = wireOf(reply, method, headers.get('accept-encoding'), forwardedProtoIsHttps(peer, headers, config.trustProxy));
    return wire ? toResponse(method, wire) : new Response(`The page ${path.split('?')[0]} renders only over a socket.\n`, { status: 501 });
  }

  return Object.assign(listener, { request });
}
