/**
 * The server's one route table: each row says which requests it claims (its methods; its
 * path exactly, by prefix, as one segment under a prefix, or by pattern; the host and a
 * condition on the request where a feature needs them), which rate-limit classes count them
 * (named by rate-limit/classes.ts), whether its answers are readable from any origin (CORS
 * is opt-in: a row without `cors: true` answers with no Access-Control-* header at all), and
 * either the handler that answers it or, for an on-demand page, the page's locals. Dispatch
 * (app.ts), the rate limits, the page set, the prebuilt shells and CORS are all read from
 * it; routes.ts writes it. Nothing here creates a promise for an answer made synchronously.
 */
import type { AppRequest, AppResponse, Handler } from './handler.ts';
import type { LimitClass } from '../rate-limit/classes.ts';
import type { ShellPage } from '../shell/load.ts';
import { andThen, type MaybePromise } from '../utils/maybe-promise.ts';

/** What a page's limit says of one page request: the headers to add to the page, or the answer to send instead. */
export interface PageVerdict {
  headers: Record<string, string>;
  /** A short text for whoever reads it in a browser, with the time to wait; undefined when the page may be sent. */
  refusal: AppResponse | undefined;
}

/** What a rate-limit class does to a request (rate-limit/limit.ts makes one per class that is on). */
export interface RouteLimit {
  /** An endpoint's answer under the limit: the 429 instead, or `inner`'s answer with the RateLimit headers. */
  answer(req: AppRequest, inner: () => ReturnType<Handler>): ReturnType<Handler>;
  /** A page under the limit: its refusal, or the headers the page gets; undefined when the limit has nothing to say. */
  page(req: AppRequest): MaybePromise<PageVerdict | undefined>;
}

/** The limits of the classes a table's rows name; a class that is off (0 a minute), or not given, counts nothing. */
export type RouteLimits = Readonly<Partial<Record<LimitClass, RouteLimit>>>;

/** Which paths a row claims: exactly one of these. */
interface PathMatch {
  /** This path exactly. */
  path?: string;
  /** Every path that starts with it. */
  prefix?: string;
  /** It and one non-empty segment after it (`/lookup/` claims `/lookup/8.8.8.8`, not `/lookup/` nor `/lookup/a/b`). */
  under?: string;
  /** Every path it matches. */
  pattern?: RegExp;
}

/** A row that a handler answers: an endpoint, a redirect. */
export interface EndpointRoute extends PathMatch {
  /** The methods it claims; absent: every method (its handler answers 405 to those it does not take). */
  methods?: readonly string[];
  /** The Host it claims (lowercase, without the port), for a feature with a name of its own; absent: any. */
  host?: string;
  /** A condition besides the path and method, for an endpoint that shares its path (`/` asked as the API). */
  when?: (req: AppRequest) => boolean;
  /** The rate-limit classes that count a request this row is the first to claim, outermost first. */
  limit?: readonly LimitClass[];
  /** true: its answers carry Access-Control-Allow-Origin: * (but those that say `cors: false`). */
  cors?: boolean;
  /** Answers, or returns undefined to leave the request to the next row that claims it. */
  handler: Handler;
  page?: undefined;
}

/** A row that is an on-demand page, rendered by Astro (or from its prebuilt shell), asked after the static files. */
export interface PageRoute extends PathMatch {
  /** The page's rate-limit class (one). */
  limit?: readonly [LimitClass];
  page: {
    /** The locals the page renders with. */
    locals: (req: AppRequest) => MaybePromise<App.Locals>;
    /** Whether the page is served from a shell cut at start (shell/load.ts); a shell needs `path` or `under`. */
    shell?: boolean;
    /** The page's language, for pages translated later; absent: the site's. */
    locale?: string;
  };
  handler?: undefined;
  methods?: undefined;
  host?: undefined;
  when?: undefined;
  cors?: undefined;
}

export type Route = EndpointRoute | PageRoute;


export interface RouteTable {
  readonly rows: readonly Route[];
  /**
   * The answer of the endpoint rows: the first row that claims the request names its
   * limits and its CORS; its handler is asked, then the next claiming row's, until one
   * answers. Undefined when none claims or none answers.
   */
  answer(req: AppRequest): ReturnType<Handler>;
  /** The page row of a path, if it is a page. */
  page(path: string): PageRoute | undefined;
  /** Whether a path is an on-demand page. */
  isPage(path: string): boolean;
  /** What a page row's limit says of a request (undefined: no limit, or it has nothing to say). */
  pageLimit(row: PageRoute, req: AppRequest): MaybePromise<PageVerdict | undefined>;
  /** The pages served from a shell. */
  readonly shellPages: readonly ShellPage[];
}

const claimsPath = (row: PathMatch, path: string): boolean =>
  row.path !== undefined ? path === row.path
    : row.prefix !== undefined ? path.startsWith(row.prefix)
      : row.under !== undefined ? path.length > row.under.length && path.startsWith(row.under) && !path.includes('/', row.under.length)
        : row.pattern!.test(path);

/** The Host header without its port, lowercase. */
const hostOf = (req: AppRequest): string => (req.headers.get('host') ?? '').toLowerCase().replace(/:\d+$/, '');

const claims = (row: EndpointRoute, req: AppRequest): boolean =>
  claimsPath(row, req.path) && (row.methods === undefined || row.methods.includes(req.method))
  && (row.host === undefined || hostOf(req) === row.host) && (row.when === undefined || row.when(req));

/** The CORS header set an answer may carry (the expose list the rate limit and Server-Timing add). */
const CORS_HEADER = /^access-control-/i;

/** An answer of a row that opts in to CORS: readable from any origin unless it says otherwise. */
const anyOrigin = (found: AppResponse): AppResponse => (found.cors === undefined ? { ...found, cors: true } : found);

/** An answer of a row that does not: no CORS at all, no Access-Control-* header of its own either. */
function sameOrigin(found: AppResponse): AppResponse {
  const own = found.headers;
  const headers = own && Object.keys(own).some((name) => CORS_HEADER.test(name))
    ? Object.fromEntries(Object.entries(own).filter(([name]) => !CORS_HEADER.test(name)))
    : own;
  return found.cors === true || headers !== own ? { ...found, headers, cors: false } : found;
}

function checkRow(row: Route): void {
  const matches = [row.path, row.prefix, row.under, row.pattern].filter((m) => m !== undefined).length;
  const name = String(row.path ?? row.prefix ?? row.under ?? row.pattern);
  if (matches !== 1) throw new Error(`route ${name}: give exactly one of path, prefix, under, pattern`);
  if (row.page?.shell && row.path === undefined && row.under === undefined) throw new Error(`route ${name}: a shell page needs path or under`);
}

/** The table of `rows` (in the order they are asked), with the limits of the rate-limit classes they name. */
export function routeTable(rows: readonly Route[], limits: RouteLimits = {}): RouteTable {
  for (const row of rows) checkRow(row);
  const endpoints = rows.filter((row): row is EndpointRoute => row.handler !== undefined);
  const pages = rows.filter((row): row is PageRoute => row.page !== undefined);
  /** Each endpoint row's limits that are on, outermost first. */
  const limitsOf = endpoints.map((row) => (row.limit ?? []).map((c) => limits[c]).filter((l) => l !== undefined));

  /** The answer of the first row from `from` on that claims the request and answers. */
  const askFrom = (req: AppRequest, from: number): ReturnType<Handler> => {
    for (let i = from; i < endpoints.length; i++) {
      if (!claims(endpoints[i]!, req)) continue;
      const answer = endpoints[i]!.handler(req);
      if (answer !== undefined) return andThen(answer, (found) => found ?? askFrom(req, i + 1));
    }
    return undefined;
  };
  const limited = (req: AppRequest, under: readonly RouteLimit[], at: number, first: number): ReturnType<Handler> =>
    at === under.length ? askFrom(req, first) : under[at]!.answer(req, () => limited(req, under, at + 1, first));

  return {
    rows,
    answer(req) {
      const first = endpoints.findIndex((row) => claims(row, req));
      if (first === -1) return undefined;
      const answer = limited(req, limitsOf[first]!, 0, first);
      if (answer === undefined) return undefined;
      return andThen(answer, (found) => found && (endpoints[first]!.cors === true ? anyOrigin(found) : sameOrigin(found)));
    },
    page: (path) => pages.find((row) => claimsPath(row, path)),
    isPage: (path) => pages.some((row) => claimsPath(row, path)),
    pageLimit: (row, req) => (row.limit && limits[row.limit[0]])?.page(req),
    shellPages: pages.filter((row) => row.page.shell).map((row) => ({ path: (row.path ?? row.under)!, prefix: row.path === undefined })),
  };
}
