/**
 * A page's answer from its shell, with a shell that records how it was filled: which pages
 * it answers, the body plain, zstd or gzip (HEAD without it), the headers in order (the document
 * set, HSTS behind a TLS proxy, the page's own, Vary, encoding, length, Server-Timing), and
 * a shell that fails on a record handing the page back to Astro, said in the log.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { LookupResponse } from '../../lib/record.ts';
import { pageHeaders } from '../http/wire.ts';
import { createShellAnswer, pageEncoding, type ShellRequest } from './answer.ts';
import { zstdPages } from './page-compress.ts';
import type { PageEncoding, PageShell } from './page-shell.ts';

const LOOKUP = { data: { ip: '192.0.2.7' } } as LookupResponse;
const LOCALS = { lookup: LOOKUP } as App.Locals;
const OWN = { 'content-type': 'text/html', 'content-security-policy': "script-src 'self'" };

/** A shell answering `<p>{ip}</p>`, or the encoding and `:` before it; its fills noted. */
function fakeShell(fail?: Error) {
  const fills: Array<[LookupResponse, PageEncoding | undefined]> = [];
  const shell = {
    headers: OWN,
    fill(lookup: LookupResponse, encoding?: PageEncoding): Buffer {
      fills.push([lookup, encoding]);
      if (fail) throw fail;
      return Buffer.from(`${encoding ? `${encoding}:` : ''}<p>${lookup.data.ip}</p>`);
    },
  } as unknown as PageShell;
  return { shell, fills };
}

const request = (over: Partial<ShellRequest> = {}): ShellRequest => ({ method: 'GET', acceptEncoding: undefined, https: false, started: performance.now(), ...over });
/** A flat header list as [name, value] pairs. */
const pairs = (flat: string[]) => flat.flatMap((v, i) => (i % 2 ? [] : [[v, flat[i + 1]!]]));
/** The headers before encoding, length and timing, as a plain or TLS page gets them. */
const pageOf = (https: boolean) => [...Object.entries(pageHeaders[https ? 1 : 0]), ...Object.entries(OWN), ['vary', 'accept-encoding']];

afterEach(() => { vi.restoreAllMocks(); });

describe('createShellAnswer', () => {
  it('answers only a path with a shell, and only with a record', () => {
    const { shell, fills } = fakeShell();
    const answer = createShellAnswer((path) => (path === '/' ? shell : undefined));
    expect(answer('/ip-2', LOCALS, request())).toBeUndefined();
    expect(answer('/', {} as App.Locals, request())).toBeUndefined();
    expect(fills).toEqual([]);
    expect(answer('/', LOCALS, request())?.status).toBe(200);
  });

  it.each<[string, string | null | undefined, PageEncoding | undefined]>([
    ['no Accept-Encoding', undefined, undefined],
    ['an empty one', '', undefined],
    ['identity', 'identity', undefined],
    ['br alone', 'br', undefined],
    ['gzip', 'gzip', 'gzip'],
    ['gzip and br, as Safari asks', 'gzip, deflate, br', 'gzip'],
    ['zstd alone', 'zstd', 'zstd'],
    ['zstd among others, as Chrome asks', 'gzip, deflate, br, zstd', 'zstd'],
    ['zstd before gzip', 'br, gzip;q=0.8, zstd', 'zstd'],
  ])('with %s: %s', (_, acceptEncoding, encoding) => {
    expect(zstdPages).toBe(true);
    const { shell, fills } = fakeShell();
    const wire = createShellAnswer(() => shell)('/', LOCALS, request({ acceptEncoding }))!;
    const body = `${encoding ? `${encoding}:` : ''}<p>192.0.2.7</p>`;
    expect(fills).toEqual([[LOOKUP, encoding]]);
    expect(wire.body?.toString()).toBe(body);
    expect(pairs(wire.headers).slice(0, -1)).toEqual([...pageOf(false), ...(encoding ? [['content-encoding', encoding]] : []), ['content-length', String(body.length)]]);
  });

  it('offers zstd only where node has it: else gzip', () => {
    expect(pageEncoding('gzip, deflate, br, zstd', false)).toBe('gzip');
    expect(pageEncoding('zstd', false)).toBeUndefined();
    expect(pageEncoding('zstd', true)).toBe('zstd');
  });

  it('adds HSTS behind a TLS proxy, and only there, each answer with its own headers', () => {
    const { shell } = fakeShell();
    const answer = createShellAnswer(() => shell);
    for (const https of [true, false, true, false]) {
      const wire = answer('/', LOCALS, request({ https }))!;
      expect(pairs(wire.headers).slice(0, -2)).toEqual(pageOf(https));
      expect(pairs(wire.headers).filter(([name]) => name === 'strict-transport-security')).toHaveLength(https ? 1 : 0);
    }
  });

  it('gives HEAD the headers and length of the page, and no body', () => {
    const { shell } = fakeShell();
    const wire = createShellAnswer(() => shell)('/', LOCALS, request({ method: 'HEAD', acceptEncoding: 'gzip' }))!;
    expect(wire.body).toBeUndefined();
    expect(pairs(wire.headers)).toContainEqual(['content-length', String('gzip:<p>192.0.2.7</p>'.length)]);
    expect(pairs(wire.headers)).toContainEqual(['content-encoding', 'gzip']);
  });

  it.each([250, 1_000])('times the answer from the lookup\'s start in Server-Timing (%d ms before)', (before) => {
    const { shell } = fakeShell();
    const started = performance.now() - before;
    const wire = createShellAnswer(() => shell)('/', LOCALS, request({ started }))!;
    const elapsed = performance.now() - started;
    const [name, value] = pairs(wire.headers).at(-1)!;
    expect(name).toBe('server-timing');
    const dur = /^page;dur=(\d+\.\d{3});desc="Lookup and page"$/.exec(value!)?.[1];
    expect(Number(dur)).toBeGreaterThanOrEqual(before);
    expect(Number(dur)).toBeLessThanOrEqual(elapsed + 0.001);
  });

  it('hands a page whose shell fails on the record back to Astro, and logs why', () => {
    const errors = vi.spyOn(console, 'error').mockImplementation(() => {});
    const { shell } = fakeShell(new RangeError('the island threw'));
    expect(createShellAnswer(() => shell)('/lookup/192.0.2.7', LOCALS, request())).toBeUndefined();
    expect(errors).toHaveBeenCalledTimes(1);
    expect(errors.mock.calls[0]![0]).toMatch(/^\/lookup\/192\.0\.2\.7 from its shell failed, rendering through Astro: RangeError: the island threw \(at /);
  });
});
