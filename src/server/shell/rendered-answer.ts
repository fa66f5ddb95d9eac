/**
 * The answer of a page Astro renders per request, one no shell answers (a network's page,
 * `/networks`, an address's page for what is not an address): rendered whole into memory
 * (render-capture.ts) and sent at once, with the document headers, the page's own (type,
 * CSP, Cache-Control) over them, gzip when the client takes it, and Server-Timing from the
 * page's start (its data included) to its answer. A page that says `Cache-Control: public`
 * gets a strong ETag of its bytes (a matching If-None-Match gets a 304) and no RateLimit
 * headers, which a shared cache would hand to everyone; and when its locals name a
 * `cacheKey` (what else the page depends on besides its URL), the gzip answer of one asked
 * more than once is kept and sent again without a render (bench/asn.mjs measures both).
 */
import { createHash } from 'node:crypto';
import { accepts } from '../http/static-site.ts';
import { pageHeaders } from '../http/wire.ts';
import { serverTiming } from '../http/handler.ts';
import { SecondHitMemo } from '../utils/bounded-map.ts';
import type { WireAnswer } from './answer.ts';
import { PageGzip } from './page-compress.ts';
import { renderCaptured, type PageRenderer } from './render-capture.ts';

/** Level 2, as a first visit's page from a shell: a page is compressed once per render (6 takes twice as long for 7% less). */
const GZIP = new PageGzip(2);
/** Compressed pages kept (a network's page is 4-6 KB compressed: a few MB at most). */
const KEPT_PAGES = 1024;

export interface RenderedRequest {
  method: string;
  acceptEncoding: string | null | undefined;
  ifNoneMatch: string | null | undefined;
  https: boolean;
  /** When the page's work began (performance.now()), its data included. */
  started: number;
  /** The pages' rate-limit headers for this client. */
  limitHeaders?: Readonly<Record<string, string>> | undefined;
}

/**
 * Renders the page at `target` (the request target Astro routes by) with `locals` and answers
 * it; undefined when the render wrote nothing (Astro found no route: the caller answers as
 * for anything unanswered); rejects when it stopped before its end, which nothing was sent of.
 */
export type RenderedAnswer = (target: string, locals: App.Locals, req: RenderedRequest) => Promise<WireAnswer | undefined>;

/** A rendered page: its status and own headers, whether shared caches may keep it, and its body plain or compressed. */
interface Page { status: number; headers: Record<string, string>; shared: boolean; etag: string | undefined; plain?: Buffer; gzip?: Buffer }

export function createRenderedAnswer(render: PageRenderer): RenderedAnswer {
  const kept = new SecondHitMemo<string, Page>(KEPT_PAGES);

  async function renderPage(target: string, locals: App.Locals, gzip: boolean, key: string | undefined): Promise<Page | undefined> {
    const captured = await renderCaptured(render, target, locals);
    if (captured.status === 0 && !captured.ended) return undefined;
    if (!captured.ended) throw new Error(`the render of ${target.slice(0, 200)} stopped before its end`);
    const plain = Buffer.from(captured.html);
    const shared = /\bpublic\b/.test(captured.headers['cache-control'] ?? '');
    const etag = shared ? `"${createHash('sha1').update(plain).digest('base64url').slice(0, 22)}"` : undefined;
    const page: Page = { status: captured.status, headers: captured.headers, shared, etag, ...(gzip ? { gzip: GZIP.compress(plain) } : { plain }) };
    if (key !== undefined && shared && page.gzip) kept.offer(key, page);
    return page;
  }

  return async (target, locals, req) => {
    const gzip = accepts(req.acceptEncoding, 'gzip');
    const key = locals.cacheKey === undefined ? undefined : `${target} ${locals.cacheKey}`;
    const page = (key !== undefined && gzip ? kept.get(key) : undefined) ?? await renderPage(target, locals, gzip, key);
    if (!page) return undefined;
    const own = { ...pageHeaders[req.https ? 1 : 0], ...(page.shared ? {} : req.limitHeaders), ...page.headers, vary: 'accept-encoding' };
    const headers = Object.entries(own).flat();
    let body = page.gzip ?? page.plain;
    let status = page.status;
    if (page.etag) {
      headers.push('etag', page.etag);
      if (req.ifNoneMatch === page.etag) {
        status = 304;
        body = undefined;
      }
    }
    if (body) headers.push(...(page.gzip ? ['content-encoding', 'gzip'] : []), 'content-length', String(body.length));
    headers.push('server-timing', serverTiming('page', performance.now() - req.started, 'Data and page'));
    return { status, headers, body: req.method === 'HEAD' ? undefined : body };
  };
}
