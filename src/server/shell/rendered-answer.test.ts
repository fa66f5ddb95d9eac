/**
 * A page Astro renders per request, answered whole, with a renderer that plays Astro's node
 * handler and counts its renders: nothing for no route, a failure for a render cut short,
 * the headers in order, an ETag and 304 only for a public page, rate-limit headers only on
 * a page no shared cache keeps, gzip, HEAD, Server-Timing, and which answers are kept.
 */
import { createHash } from 'node:crypto';
import { gunzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { pageHeaders } from '../http/wire.ts';
import type { PageRenderer } from './render-capture.ts';
import { createRenderedAnswer, type RenderedRequest } from './rendered-answer.ts';

const LIMIT = { 'ratelimit-limit': '120', 'ratelimit-remaining': '119' };

/** A renderer writing `<p>{url} {n}</p>` (n counts renders) with the given status and headers. */
function renderer(status = 200, headers: Record<string, string> = { 'content-type': 'text/html', 'cache-control': 'public, max-age=3600' }) {
  const urls: string[] = [];
  const render: PageRenderer = async (req, res) => {
    urls.push(req.url!);
    res.writeHead(status, headers);
    res.end(`<p>${req.url} ${urls.length}</p>`);
  };
  return { render, urls };
}

const request = (over: Partial<RenderedRequest> = {}): RenderedRequest =>
  ({ method: 'GET', acceptEncoding: undefined, ifNoneMatch: undefined, https: false, started: performance.now(), limitHeaders: LIMIT, ...over });
const pairs = (flat: string[]) => flat.flatMap((v, i) => (i % 2 ? [] : [[v, flat[i + 1]!]]));
const etagOf = (html: string) => `"${createHash('sha1').update(html).digest('base64url').slice(0, 22)}"`;
const bodyText = (body: Buffer | undefined, gzip: boolean) => (gzip ? gunzipSync(body!) : body!).toString();

describe('createRenderedAnswer', () => {
  it('answers nothing when the render wrote nothing (no route)', async () => {
    expect(await createRenderedAnswer(async () => {})('/nowhere', {} as App.Locals, request())).toBeUndefined();
  });

  it('fails for a render that stopped before its end', async () => {
    const cut: PageRenderer = async (_, res) => { res.writeHead(200); res.write('<p>'); throw new Error('broke'); };
    await expect(createRenderedAnswer(cut)('/AS1', {} as App.Locals, request())).rejects.toThrow(new Error('the render of /AS1 stopped before its end'));
    // A long target is named by its first 200 characters.
    const long = `/networks?q=${'x'.repeat(300)}`;
    await expect(createRenderedAnswer(cut)(long, {} as App.Locals, request())).rejects.toThrow(new Error(`the render of ${long.slice(0, 200)} stopped before its end`));
  });

  it.each<[string, string | undefined, boolean]>([
    ['public', 'public', true],
    ['public with an age', 'public, max-age=3600', true],
    ['public last', 'max-age=60, public', true],
    ['private', 'private, no-store', false],
    ['a word holding public', 'publicity, nonpublic', false],
    ['none', undefined, false],
  ])('Cache-Control %s: shared %s (ETag, no rate-limit headers)', async (_, cacheControl, shared) => {
    const own = { 'content-type': 'text/html', ...(cacheControl === undefined ? {} : { 'cache-control': cacheControl }) };
    const wire = (await createRenderedAnswer(renderer(200, own).render)('/AS1', {} as App.Locals, request()))!;
    const html = '<p>/AS1 1</p>';
    expect(wire.body?.toString()).toBe(html);
    expect(pairs(wire.headers).slice(0, -1)).toEqual([
      ...Object.entries({ ...pageHeaders[0], ...(shared ? {} : LIMIT), ...own, vary: 'accept-encoding' }),
      ...(shared ? [['etag', etagOf(html)]] : []),
      ['content-length', String(html.length)],
    ]);
  });

  it('puts the page\'s own headers over the document set, with HSTS behind a TLS proxy', async () => {
    const own = { 'content-type': 'text/html', 'cache-control': 'public, max-age=60', 'content-security-policy': "default-src 'none'" };
    for (const https of [false, true]) {
      const wire = (await createRenderedAnswer(renderer(200, own).render)('/networks', {} as App.Locals, request({ https })))!;
      const headers = new Map(pairs(wire.headers) as Array<[string, string]>);
      expect(headers.get('content-security-policy')).toBe("default-src 'none'");
      expect(headers.get('cache-control')).toBe('public, max-age=60');
      expect(headers.get('strict-transport-security')).toBe(https ? pageHeaders[1]['strict-transport-security'] : undefined);
    }
  });

  it('keeps the status the page answered with', async () => {
    const wire = (await createRenderedAnswer(renderer(404, { 'content-type': 'text/html' }).render)('/AS9', {} as App.Locals, request()))!;
    expect(wire.status).toBe(404);
  });

  it.each<[string, string | undefined, number]>([
    ['the page\'s ETag', etagOf('<p>/AS1 1</p>'), 304],
    ['another ETag', '"other"', 200],
    ['none', undefined, 200],
  ])('If-None-Match with %s: %d', async (_, ifNoneMatch, status) => {
    const wire = (await createRenderedAnswer(renderer().render)('/AS1', {} as App.Locals, request({ ifNoneMatch })))!;
    expect(wire.status).toBe(status);
    const headers = pairs(wire.headers);
    expect(headers).toContainEqual(['etag', etagOf('<p>/AS1 1</p>')]);
    if (status === 304) {
      expect(wire.body).toBeUndefined();
      expect(headers.map(([name]) => name)).not.toContain('content-length');
    } else {
      expect(wire.body?.toString()).toBe('<p>/AS1 1</p>');
    }
  });

  it('gzips for a client that takes it', async () => {
    const wire = (await createRenderedAnswer(renderer().render)('/AS1', {} as App.Locals, request({ acceptEncoding: 'br, gzip' })))!;
    expect(bodyText(wire.body as Buffer, true)).toBe('<p>/AS1 1</p>');
    const headers = pairs(wire.headers);
    expect(headers).toContainEqual(['content-encoding', 'gzip']);
    expect(headers).toContainEqual(['content-length', String(wire.body!.length)]);
    expect(headers).toContainEqual(['etag', etagOf('<p>/AS1 1</p>')]);
  });

  it('gives HEAD the headers and length, and no body', async () => {
    const wire = (await createRenderedAnswer(renderer().render)('/AS1', {} as App.Locals, request({ method: 'HEAD' })))!;
    expect(wire.body).toBeUndefined();
    expect(pairs(wire.headers)).toContainEqual(['content-length', String('<p>/AS1 1</p>'.length)]);
  });

  it.each([250, 1_000])('times the answer from the page\'s start in Server-Timing (%d ms before)', async (before) => {
    const started = performance.now() - before;
    const wire = (await createRenderedAnswer(renderer().render)('/AS1', {} as App.Locals, request({ started })))!;
    const elapsed = performance.now() - started;
    const [name, value] = pairs(wire.headers).at(-1)!;
    expect(name).toBe('server-timing');
    const dur = /^page;dur=(\d+\.\d{3});desc="Data and page"$/.exec(value!)?.[1];
    expect(Number(dur)).toBeGreaterThanOrEqual(before);
    expect(Number(dur)).toBeLessThanOrEqual(elapsed + 0.001);
  });

  /** The pages a client gets for `asks` in turn, by how they were rendered (`<p>{url} {render}</p>`). */
  async function answered(cacheControl: string, asks: Array<[string, string | undefined, string]>): Promise<string[]> {
    const answer = createRenderedAnswer(renderer(200, { 'content-type': 'text/html', 'cache-control': cacheControl }).render);
    const out: string[] = [];
    for (const [target, cacheKey, acceptEncoding] of asks) {
      const wire = (await answer(target, { cacheKey } as App.Locals, request({ acceptEncoding })))!;
      out.push(bodyText(wire.body as Buffer, acceptEncoding === 'gzip'));
    }
    return out;
  }

  it('keeps a public page\'s gzip answer from its second ask, by target and cache key', async () => {
    expect(await answered('public', [['/AS1', 'v1', 'gzip'], ['/AS1', 'v1', 'gzip'], ['/AS1', 'v1', 'gzip'], ['/AS1', 'v2', 'gzip'], ['/AS2', 'v1', 'gzip'], ['/AS1', 'v1', 'gzip']]))
      .toEqual(['<p>/AS1 1</p>', '<p>/AS1 2</p>', '<p>/AS1 2</p>', '<p>/AS1 3</p>', '<p>/AS2 4</p>', '<p>/AS1 2</p>']);
  });

  it.each<[string, string, Array<[string, string | undefined, string]>]>([
    ['without a cache key', 'public', [['/AS1', undefined, 'gzip'], ['/AS1', undefined, 'gzip'], ['/AS1', undefined, 'gzip']]],
    ['a private page', 'private', [['/AS1', 'v1', 'gzip'], ['/AS1', 'v1', 'gzip'], ['/AS1', 'v1', 'gzip']]],
    ['a plain answer', 'public', [['/AS1', 'v1', 'identity'], ['/AS1', 'v1', 'identity'], ['/AS1', 'v1', 'identity']]],
  ])('keeps nothing %s: each ask rendered', async (_, cacheControl, asks) => {
    expect(await answered(cacheControl, asks)).toEqual(['<p>/AS1 1</p>', '<p>/AS1 2</p>', '<p>/AS1 3</p>']);
  });

  it('answers a plain ask after gzip asks, and a gzip ask after plain asks, with a fresh render in its encoding', async () => {
    expect(await answered('public', [['/AS1', 'v1', 'gzip'], ['/AS1', 'v1', 'gzip'], ['/AS1', 'v1', 'identity']]))
      .toEqual(['<p>/AS1 1</p>', '<p>/AS1 2</p>', '<p>/AS1 3</p>']);
    expect(await answered('public', [['/AS1', 'v1', 'identity'], ['/AS1', 'v1', 'identity'], ['/AS1', 'v1', 'gzip']]))
      .toEqual(['<p>/AS1 1</p>', '<p>/AS1 2</p>', '<p>/AS1 3</p>']);
  });
});
