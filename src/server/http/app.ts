/**
 * The HTTP entry, dispatch only: derives the client address and hands each request to
 * the first part that claims it: health check, the route table's endpoints (API, plain
 * text, redirects: route-table.ts), static files, the table's on-demand pages (`/`,
 * `/lookup/{ip}`), a trailing-slash redirect, the 404 page. What dispatch answers itself
 * (400s, 405s, redirects, 404, 413, 500, 503) is readable from any origin.
 * `createApp` returns the node:http listener, which also answers in-process through
 * `app.request()` (no port: handler tests run that way, as with Hono's `app.request()`).
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { clientAddress, forwardedProtoIsHttps, untrustedProxyHeader } from './client-ip.ts';
import type { Config } from '../config.ts';
import type { Health } from './health.ts';
import { BodyTooLarge, jsonError, methodNotAllowed, text, type AppRequest, type AppResponse } from './handler.ts';
import { oneLine } from '../utils/log.ts';
import { andThen } from '../utils/maybe-promise.ts';
import { ANSWER_DEADLINE_MS, watchAnswer } from './answer-deadline.ts';
import { answerFile, slashRedirect, type FileAnswer, type StaticSite } from './static-site.ts';
import { flatten, inProcessRequest, NodeHeaders, readBody, toResponse, withHsts, type RequestInit } from './wire.ts';
import type { ShellAnswer } from '../shell/answer.ts';
import type { RenderedAnswer } from '../shell/rendered-answer.ts';
import type { PageRoute, PageVerdict, RouteTable } from './route-table.ts';

export interface AppParts {
  config: Config;
  site: StaticSite;
  /** Which part answers which request (route-table.ts): its endpoints before the static files, its pages after them. */
  routes: RouteTable;
  /** What /healthz reports (health.ts, beside this file). */
  health: Health;
  /** How the on-demand pages are made (absent when there is no build: no page is answered): rendered whole by Astro, or from their shells (../shell/). */
  page?: { rendered: RenderedAnswer; shell?: ShellAnswer | undefined };
  /** How long an answer made asynchronously may take before it is answered 503 (answer-deadline.ts). */
  answerDeadlineMs?: number;
}

/** A request as dispatch sees it, from a socket or in-process. */
interface Incoming { method: string; url: string; headers: AppRequest['headers']; peer: string; body(): Promise<Buffer> }

/** What dispatch decided besides a handler-style answer: a file, or the page to render. */
class FileReply { readonly file: FileAnswer; constructor(file: FileAnswer) { this.file = file; } }
/** A page to answer: its path, its locals, when its lookup began (Server-Timing), and its RateLimit headers. */
class PageReply {
  readonly path: string;
  readonly locals: App.Locals;
  readonly started: number;
  readonly headers: Readonly<Record<string, string>> | undefined;
  constructor(path: string, locals: App.Locals, started: number, headers: Readonly<Record<string, string>> | undefined) {
    this.path = path;
    this.locals = locals;
    this.started = started;
    this.headers = headers;
  }
}
type Reply = AppResponse | FileReply | PageReply;

/** The node:http listener, which also answers in-process. */
export interface AppListener {
  (req: IncomingMessage, res: ServerResponse): void;
  /**
   * Answers without a socket, as the listener would; `peer` is the socket address the
   * request comes from (default 127.0.0.1).
   */
  request(path: string, init?: RequestInit): Promise<Response>;
}

/** Shared by every request without a query string; handlers only read it. */
const NO_QUERY: URLSearchParams = new URLSearchParams();
/** An answer dispatch makes itself: readable from any origin. */
const anyOrigin = (reply: AppResponse): AppResponse => ({ ...reply, cors: true });
const BAD_TARGET = anyOrigin(jsonError(400, 'bad_request', 'The request target must be a path.'));
const BAD_ENCODING = anyOrigin(jsonError(400, 'bad_request', 'The path is not valid percent-encoding.'));
/** The answer to a client whose address is unknown (client-ip.ts): nothing is looked up, limited or granted for it. */
const UNKNOWN_CLIENT_ANSWER = anyOrigin(jsonError(400, 'unknown_client',
  'Your address could not be determined: a proxy in front of this server named a hop that is not an address.'));
const notAllowed = (method: string) => anyOrigin(methodNotAllowed('GET, HEAD', `${method} is not allowed here.`));
/** The answer to a request the server did not answer within its deadline; the socket closes after it. */
const OVERDUE = anyOrigin(jsonError(503, 'timeout', 'The server took too long over this answer. Try again.', { connection: 'close', 'retry-after': '1' }));

/**
 * The request target Astro is handed for a page dispatch chose: the decoded path with each
 * segment encoded again, and the query as it came. Astro routes by the URL the WHATWG parser
 * makes of the target, which resolves dot segments (`.`, `..`, `%2E`) and reads `\` as `/`:
 * `/lookup/.` would reach it as `/lookup/`, which no page matches, and `/lookup/..` as `/`.
 * Encoded, `\` and `%` stay inside their segment; a segment of dots, which no encoding keeps,
 * is handed as `-` (a page shows what its locals hold, not its URL).
 */
export function pageTarget(path: string, rawUrl: string): string {
  const q = rawUrl.indexOf('?');
  const segments = path.split('/').map((s) => s === '.' || s === '..' ? '-' : encodeURIComponent(s));
  return segments.join('/') + (q === -1 ? '' : rawUrl.slice(q));
}

/** The site's 404 page (its section's, if it has one) as dispatch answers it. */
function notFound(site: StaticSite, path: string, fileRequest: { method: string; acceptEncoding: string | undefined }): Reply {
  const file = site.notFoundPage(path);
  return file ? new FileReply(answerFile(file, { ...fileRequest, ifNoneMatch: undefined }, true)) : anyOrigin(text(404, 'Not found'));
}

/** The answer to a request that failed: 413 past the body limit, else a 500 logged in one line. */
function failure(error: unknown, method: string, url: string, bodyLimit: number): AppResponse {
  if (error instanceof BodyTooLarge) return anyOrigin(jsonError(413, 'payload_too_large', `The request body is larger than ${bodyLimit} bytes.`));
  console.error(`request failed: ${method} ${url.slice(0, 200)}: ${oneLine(error)}`);
  return anyOrigin(jsonError(500, 'internal', 'Something went wrong on our side.'));
}

/** The deciding half of the app: what answers one request, a promise only when some part of it is asynchronous. */
function dispatcher({ config, site, routes, page, health }: AppParts): (inc: Incoming) => Reply | Promise<Reply> {

  /** A page once its rate limit has spoken: the limit's refusal, or the page's locals with the limit's headers. */
  function pageReply(row: PageRoute, path: string, appReq: AppRequest, verdict: PageVerdict | undefined): Reply | Promise<Reply> {
    if (verdict?.refusal) return verdict.refusal;
    const started = performance.now();
    const headers = verdict?.headers;
    return andThen(row.page.locals(appReq), (locals) => new PageReply(path, locals, started, headers));
  }

  /** What no handler answered: static files, the on-demand pages, a slash redirect, the 404 page. */
  function fallThrough(inc: Incoming, path: string, appReq: AppRequest): Reply | Promise<Reply> {
    const isRead = inc.method === 'GET' || inc.method === 'HEAD';
    const fileRequest = { method: inc.method, ifNoneMatch: inc.headers.get('if-none-match') ?? undefined, acceptEncoding: inc.headers.get('accept-encoding') ?? undefined };
    const file = site.get(path);
    if (file) return isRead ? new FileReply(answerFile(file, fileRequest, path.endsWith('/404'))) : notAllowed(inc.method);
    const row = page && routes.page(path);
    if (row) {
      if (!isRead) return notAllowed(inc.method);
      // Asked before the lookup, so that a refused page costs none.
      return andThen(routes.pageLimit(row, appReq), (verdict) => pageReply(row, path, appReq, verdict));
    }
    const q = inc.url.indexOf('?');
    const location = slashRedirect(site, path, q === -1 ? '' : inc.url.slice(q + 1), page ? routes.isPage : undefined);
    if (location) return anyOrigin(text(301, `Moved to ${location}`, { location }));
    return notFound(site, path, fileRequest);
  }

  /** Set once the missing TRUST_PROXY was said: one line a process (one app a process), not one a request. */
  let proxyWarned = config.trustProxy.kind !== 'none';
  const warnIfProxied = (inc: Incoming) => {
    const header = untrustedProxyHeader(inc.peer, inc.headers, config.trustProxy);
    if (header === undefined) return;
    proxyWarned = true;
    console.warn(`TRUST_PROXY is not set, but a request from ${inc.peer}, a private or loopback address, carries ${header}: a proxy in front? Every visitor then appears as the proxy, exempt from the rate limit and allowed the operator's analytics. Set TRUST_PROXY=1 (one proxy) or TRUST_PROXY=<the proxy's CIDRs>, and TRUST_PROXY_HEADER when it writes another header than X-Forwarded-For (docs/operations.md)`);
  };

  return function dispatch(inc: Incoming): Reply | Promise<Reply> {
    if (!proxyWarned) warnIfProxied(inc);
    const rawUrl = inc.url;
    if (!rawUrl.startsWith('/')) return BAD_TARGET;
    const q = rawUrl.indexOf('?');
    let path: string;
    try {
      const rawPath = q === -1 ? rawUrl : rawUrl.slice(0, q);
      path = rawPath.includes('%') ? decodeURIComponent(rawPath) : rawPath;
    } catch {
      return BAD_ENCODING;
    }
    if (path === '/healthz') return health.reply(inc.headers.get('accept'));
    const client = clientAddress(inc.peer, inc.headers, config.trustProxy);
    // A trusted proxy that could not name the client: only what is the same for everyone.
    if (!client.parsed && !site.get(path)) return UNKNOWN_CLIENT_ANSWER;
    const query = q === -1 ? NO_QUERY : new URLSearchParams(rawUrl.slice(q + 1));
    const appReq: AppRequest = { method: inc.method, path, query, headers: inc.headers, clientIp: client.text, clientAddress: client.parsed, body: inc.body };
    const answer = routes.answer(appReq);
    return answer === undefined ? fallThrough(inc, path, appReq) : andThen(answer, (found) => found ?? fallThrough(inc, path, appReq));
  };
}

/** Builds the listener from its parts: dispatch's replies, written on the socket or as a Response. */
export function createApp(parts: AppParts): AppListener {
  const { config, site, page, answerDeadlineMs = ANSWER_DEADLINE_MS } = parts;
  const dispatch = dispatcher(parts);

  /** A file or handler answer as status, flat headers and body. */
  const onWire = (reply: AppResponse | FileReply, https: boolean) => reply instanceof FileReply
    ? { ...reply.file, headers: withHsts(reply.file.headers, https) }
    : flatten(reply, https);

  /** A reply as it goes on the wire; undefined for a page only Astro can render. */
  const wireOf = (reply: Reply, method: string, acceptEncoding: string | null | undefined, https: boolean) => {
    if (!(reply instanceof PageReply)) return onWire(reply, https);
    const wire = page?.shell?.(reply.path, reply.locals, { method, acceptEncoding, https, started: reply.started });
    if (wire && reply.headers) for (const name in reply.headers) wire.headers.push(name, reply.headers[name]!);
    return wire;
  };

  /** A page no shell answers, rendered whole by Astro (../shell/rendered-answer.ts). */
  const rendered = (reply: PageReply, url: string, method: string, headers: AppRequest['headers'], https: boolean) =>
    page!.rendered(pageTarget(reply.path, url), reply.locals, {
      method, acceptEncoding: headers.get('accept-encoding'), ifNoneMatch: headers.get('if-none-match'), https, started: reply.started, limitHeaders: reply.headers,
    });

  function send(req: IncomingMessage, res: ServerResponse, reply: Reply, https: boolean): void | Promise<void> {
    const method = req.method ?? 'GET';
    const write = (wire: { status: number; headers: readonly string[] | string[]; body: string | Uint8Array | undefined }) => {
      res.writeHead(wire.status, wire.headers as string[]);
      res.end(method === 'HEAD' ? undefined : wire.body);
    };
    const wire = wireOf(reply, method, req.headers['accept-encoding'], https);
    // A render that wrote nothing leaves the answer unmade: the last resort answers it (answer-deadline.ts).
    if (!wire) return rendered(reply as PageReply, req.url ?? '/', method, new NodeHeaders(req), https).then((page) => { if (page) write(page); });
    write(wire);
  }

  const listener = (req: IncomingMessage, res: ServerResponse): void => {
    const headers = new NodeHeaders(req);
    const peer = req.socket.remoteAddress ?? '';
    const https = forwardedProtoIsHttps(peer, headers, config.trustProxy);
    // As it came: a page's target is rewritten for Astro (pageTarget).
    const method = req.method ?? 'GET';
    const url = req.url ?? '/';
    // In place of what was to answer; headers a page render set are overridden by the answer's own.
    const instead = (reply: Reply) => void send(req, res, reply, https);
    const fail = (error: unknown) => {
      // A client that went away (an aborted upload) is no fault of ours: nothing to answer or log.
      if (res.headersSent || req.socket.destroyed) res.destroy();
      else instead(failure(error, method, url, config.bodyLimit));
    };
    const lastResort = {
      unanswered: () => {
        console.error(`no answer made: ${method} ${url.slice(0, 200)}: answered 404`);
        instead(notFound(site, url.split('?')[0]!, { method, acceptEncoding: headers.get('accept-encoding') ?? undefined }));
      },
      overdue: () => {
        console.error(`no answer in ${answerDeadlineMs} ms: ${method} ${url.slice(0, 200)}: answered 503`);
        instead(OVERDUE);
      },
    };
    try {
      const reply = dispatch({ method, url, headers, peer, body: () => readBody(req, config.bodyLimit) });
      const sent = andThen(reply, (r) => send(req, res, r, https));
      // Answers made synchronously are on the wire already; the others are watched until made.
      if (sent) watchAnswer(req, res, sent, answerDeadlineMs, lastResort).catch(fail);
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
      reply = failure(error, method, path, config.bodyLimit);
    }
    const https = forwardedProtoIsHttps(peer, headers, config.trustProxy);
    try {
      const wire = wireOf(reply, method, headers.get('accept-encoding'), https) ?? await rendered(reply as PageReply, path, method, headers, https)
        ?? wireOf(notFound(site, path.split('?')[0]!, { method, acceptEncoding: headers.get('accept-encoding') ?? undefined }), method, undefined, https)!;
      return toResponse(method, wire);
    } catch (error) {
      return toResponse(method, flatten(failure(error, method, path, config.bodyLimit), https));
    }
  }

  return Object.assign(listener, { request });
}
