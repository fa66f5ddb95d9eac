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
import type { PageShell } from './shell/page-shell.ts';
import type { ShellFor } from './shell/load.ts';

/** Renders an on-demand page through Astro, with locals for the page. */
export type PageRenderer = (req: IncomingMessage, res: ServerResponse, locals: App.Locals) => Promise<void>;

export interface AppParts {
  config: Config;
  site: StaticSite;
  handlers: Handler[];
  /** What /healthz reports (health.ts). */
  health: Health;
  /**
   * The on-demand pages (absent when there is no build): which paths, their renderer and
   * their locals, and the prebuilt shells (shell/page-shell.ts) that answer some of them
   * without rendering.
   */
  page?: {
    render: PageRenderer;
    locals: (req: AppRequest) => App.Locals | Promise<App.Locals>;
    handles: (path: string) => boolean;
    shell?: ShellFor;
  };
}

/** An answer as it goes on the wire: status, node's flat header list, body. */
interface WireAnswer { status: number; headers: string[]; body: Buffer | undefined }

/** A request as dispatch sees it, from a socket or in-process. */
interface Incoming { method: string; url: string; headers: AppRequest['headers']; peer: string; body(): Promise<Buffer> }

/** What dispatch decided besides a handler-style answer: a file, or the page to render. */
class FileReply { readonly file: FileAnswer; constructor(file: FileAnswer) { this.file = file; } }
class PageReply {
  readonly path: string;
  readonly locals: App.Locals;
  constructor(path: string, locals: App.Locals) { this.path = path; this.locals = locals; }
}
type Reply = AppResponse | FileReply | PageReply;

/** The node:http listener, which also answers in-process. */
export interface AppListener {
  (req: IncomingMessage, res: ServerResponse): void;
  /**
   * Answers without a socket, as the listener would; `peer` is the socket address the
   * request comes from (default 127.0.0.1). The pages served from a shell (`/`, `/ip-2`,
   * `/lookup/{ip}`) answer here too; those Astro renders per request (an address's page
   * when the ask is not an address, any page whose shell was refused) render only into
   * node's response, so they answer 501 here: test them over a socket.
   */
  request(path: string, init?: RequestInit): Promise<Response>;
}

/** Shared by every request without a query string; handlers only read it. */
const NO_QUERY: URLSearchParams = new URLSearchParams();
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
      const locals = page.locals(appReq);
      return locals instanceof Promise ? locals.then((l) => new PageReply(path, l)) : new PageReply(path, locals);
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
    const appReq: AppRequest = {
      method: inc.method,
      path,
      query: q === -1 ? NO_QUERY : new URLSearchParams(rawUrl.slice(q + 1)),
      headers: inc.headers,
      clientIp: client.text,
      clientAddress: client.parsed,
      body: inc.body,
    };
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

  /** A shell page's headers but length and encoding: the document set, its own (type, CSP), Vary. */
  const shellHeaderLists = new Map<PageShell, string[][]>();
  function shellHeaders(shell: PageShell, https: boolean): string[] {
    let lists = shellHeaderLists.get(shell);
    if (!lists) {
      lists = pageHeaders.map((document) => [...Object.entries(document), ...Object.entries(shell.headers), ['vary', 'accept-encoding']].flat());
      shellHeaderLists.set(shell, lists);
    }
    return lists[https ? 1 : 0]!.slice();
  }

  /**
   * A page answered from its shell: the record spliced in, gzip when the client takes it,
   * Server-Timing with the time since the request arrived. Undefined when the page has no
   * shell (or the shell failed on this record, which is logged: Astro renders it instead).
   */
  function fromShell(reply: PageReply, method: string, acceptEncoding: string | null, https: boolean, arrived: number): WireAnswer | undefined {
    const shell = page?.shell?.(reply.path);
    const lookup = reply.locals.lookup;
    if (!shell || !lookup) return undefined;
    const gzip = acceptEncoding !== null && /\bgzip\b/.test(acceptEncoding);
    let body;
    try {
      body = shell.fill(lookup, gzip);
    } catch (error) {
      console.error(`${reply.path} from its shell failed, rendering through Astro: ${oneLine(error)}`);
      return undefined;
    }
    const headers = shellHeaders(shell, https);
    if (gzip) headers.push('content-encoding', 'gzip');
    headers.push('content-length', String(body.length), 'server-timing', `page;dur=${(performance.now() - arrived).toFixed(3)};desc="Lookup and page"`);
    return { status: 200, headers, body: method === 'HEAD' ? undefined : body };
  }

  function send(req: IncomingMessage, res: ServerResponse, reply: Reply, https: boolean, arrived: number): void | Promise<void> {
    if (reply instanceof PageReply) {
      const answer = fromShell(reply, req.method ?? 'GET', req.headers['accept-encoding'] ?? null, https, arrived);
      if (answer) {
        res.writeHead(answer.status, answer.headers);
        res.end(answer.body);
        return;
      }
      const headers = pageHeaders[https ? 1 : 0];
      for (const name in headers) res.setHeader(name, headers[name]!);
      return page!.render(req, res, reply.locals);
    }
    const { status, headers, body } = onWire(reply, https);
    res.writeHead(status, headers);
    res.end(req.method === 'HEAD' ? undefined : body);
  }

  const listener = (req: IncomingMessage, res: ServerResponse): void => {
    const arrived = performance.now();
    const headers = new NodeHeaders(req);
    const peer = req.socket.remoteAddress ?? '';
    const https = forwardedProtoIsHttps(peer, headers, config.trustProxy);
    const fail = (error: unknown) => {
      // A client that went away (an aborted upload) is no fault of ours: nothing to answer or log.
      if (res.headersSent || req.socket.destroyed) res.destroy();
      else void send(req, res, failure(error, req.method ?? '', req.url ?? ''), https, arrived);
    };
    try {
      const reply = dispatch({ method: req.method ?? 'GET', url: req.url ?? '/', headers, peer, body: () => readBody(req, config.bodyLimit) });
      const sent = reply instanceof Promise ? reply.then((r) => send(req, res, r, https, arrived)) : send(req, res, reply, https, arrived);
      if (sent) sent.catch(fail);
    } catch (error) {
      fail(error);
    }
  };

  async function request(path: string, init: RequestInit = {}): Promise<Response> {
    const arrived = performance.now();
    const { method, headers, peer, body } = inProcessRequest(init, config.bodyLimit);
    let reply: Reply;
    try {
      reply = await dispatch({ method, url: path, headers, peer, body });
    } catch (error) {
      reply = failure(error, method, path);
    }
    const https = forwardedProtoIsHttps(peer, headers, config.trustProxy);
    if (reply instanceof PageReply) {
      const answer = fromShell(reply, method, headers.get('accept-encoding'), https, arrived);
      return answer ? toResponse(method, answer) : new Response(`The page ${path.split('?')[0]} renders only over a socket.\n`, { status: 501 });
    }
    return toResponse(method, onWire(reply, https));
  }

  return Object.assign(listener, { request });
}
