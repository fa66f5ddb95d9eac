import { createServer, type IncomingHttpHeaders, type Server, type ServerResponse } from 'node:http';
import { createServer as createNetServer, type AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { download, DownloadFailure, failureKind, MAX_REDIRECTS, sameSource, type DownloadOptions } from './download.ts';

/** What a failed download is matched against: its kind (shown on /healthz) and its message (logged). */
const failure = (kind: string, message: string) => expect.objectContaining({ kind, message }) as DownloadFailure;

/** A local upstream: each path answers as its handler says; the last request's headers are kept. */
let server: Server;
let base: string;
let seen: IncomingHttpHeaders = {};
/** Resolved when the client drops an answer the server was still sending. */
const dropped = new Map<string, Promise<void>>();
const LIMITS: DownloadOptions = { timeoutMs: 5000, maxBytes: 16 };

/**
 * Waits for the client to drop an answer, within 3 s: a cancelled body is dropped at once
 * (tens of ms), one left unread only when the runtime collects it, seconds later.
 */
function droppedSoon(path: string): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => { timer = setTimeout(() => reject(new Error(`${path}: the connection was still open after 3 s`)), 3000); });
  return Promise.race([dropped.get(path)!, late]).finally(() => clearTimeout(timer));
}

/** Streams an answer that never ends, noting when the client drops it. */
function endless(path: string, res: ServerResponse, status: number, headers: Record<string, string> = {}): void {
  dropped.set(path, new Promise((resolve) => res.on('close', () => resolve())));
  res.writeHead(status, { 'content-type': 'text/plain', ...headers });
  res.write('185.220.101.1\n');
}

const ROUTES: Record<string, (res: ServerResponse, headers: IncomingHttpHeaders) => void> = {
  '/list': (res, h) => {
    if (h['if-none-match'] === '"v1"' || h['if-modified-since'] === 'Tue, 24 Nov 2026 10:00:00 GMT') return void res.writeHead(304).end();
    res.writeHead(200, { etag: '"v1"', 'last-modified': 'Tue, 24 Nov 2026 10:00:00 GMT' }).end('192.0.2.1\n');
  },
  '/bare': (res) => void res.writeHead(200, { 'content-type': 'text/plain' }).end('192.0.2.1\n'),
  '/always-304': (res) => void res.writeHead(304).end(),
  '/no-content': (res) => void res.writeHead(204).end(),
  '/status500': (res) => void res.writeHead(500).end('internal error'),
  '/exact': (res) => void res.writeHead(200, { 'content-length': '16' }).end('0123456789abcdef'),
  '/exact-chunked': (res) => { res.writeHead(200); res.write('01234567'); res.end('89abcdef'); },
  '/over': (res) => void res.writeHead(200, { 'content-length': '17' }).end('0123456789abcdefg'),
  '/over-chunked': (res) => { res.writeHead(200); res.write('0123456789'); res.end('abcdefg'); },
  '/announced-huge': (res) => endless('/announced-huge', res, 200, { 'content-length': String(10 * 1024 ** 3) }),
  '/endless-error': (res) => endless('/endless-error', res, 503),
  '/cut': (res) => { res.writeHead(200, { 'content-length': '100' }); res.write('185.2'); setImmediate(() => res.destroy()); },
  '/hang': () => {},
  '/moved': (res) => void res.writeHead(301, { location: '/bare' }).end(),
  '/moved-far': (res) => void res.writeHead(302, { location: 'http://localhost:9/list' }).end(),
  '/moved-nowhere': (res) => void res.writeHead(302).end(),
  '/hops': (res) => void res.writeHead(307, { location: '/hops' }).end(),
  '/status399': (res) => void res.writeHead(399, { location: '/bare' }).end(),
};
// /chain/N redirects N times before the list: MAX_REDIRECTS of them are followed, not one more.
const chain = (n: number) => (res: ServerResponse) => void res.writeHead(302, { location: n > 1 ? `/chain/${n - 1}` : '/bare' }).end();
for (let n = 1; n <= 10; n++) ROUTES[`/chain/${n}`] = chain(n);

beforeAll(async () => {
  server = createServer((req, res) => {
    seen = req.headers;
    const route = ROUTES[req.url ?? ''];
    if (route) route(res, req.headers);
    else res.writeHead(404).end();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((resolve) => { server.closeAllConnections(); server.close(() => resolve()); }));

describe('download', () => {
  it('answers the body with its validators, and asks with none the first time', async () => {
    const got = await download(`${base}/list`, LIMITS);
    expect(got).toStrictEqual({ status: 'ok', body: Buffer.from('192.0.2.1\n'), etag: '"v1"', lastModified: 'Tue, 24 Nov 2026 10:00:00 GMT' });
    expect(seen['if-none-match']).toBeUndefined();
    expect(seen['if-modified-since']).toBeUndefined();
    expect(seen.accept).toBe('*/*');
  });

  it('answers no validator the upstream did not send', async () => {
    expect(await download(`${base}/bare`, LIMITS)).toStrictEqual({ status: 'ok', body: Buffer.from('192.0.2.1\n'), etag: undefined, lastModified: undefined });
  });

  it('answers an empty body for an answer that has none (204)', async () => {
    expect(await download(`${base}/no-content`, LIMITS)).toStrictEqual({ status: 'ok', body: Buffer.alloc(0), etag: undefined, lastModified: undefined });
  });

  it('sends the Accept it is given', async () => {
    await download(`${base}/bare`, { ...LIMITS, accept: 'application/json' });
    expect(seen.accept).toBe('application/json');
  });

  it.each<[string, Partial<DownloadOptions>]>([
    ['the ETag alone', { etag: '"v1"' }],
    ['the Last-Modified alone', { lastModified: 'Tue, 24 Nov 2026 10:00:00 GMT' }],
  ])('asks with %s and answers not-modified on a 304', async (_name, validators) => {
    expect(await download(`${base}/list`, { ...LIMITS, ...validators })).toStrictEqual({ status: 'not-modified' });
    expect(seen['if-none-match']).toBe(validators.etag);
    expect(seen['if-modified-since']).toBe(validators.lastModified);
  });

  it('answers the new body when the upstream changed since the validators it was given', async () => {
    expect(await download(`${base}/list`, { ...LIMITS, etag: '"v0"' })).toMatchObject({ status: 'ok', body: Buffer.from('192.0.2.1\n'), etag: '"v1"' });
    expect(seen['if-none-match']).toBe('"v0"');
  });

  it('takes a 304 it did not ask for as an error', async () => {
    await expect(download(`${base}/always-304`, LIMITS)).rejects.toThrow(failure('answered 304', `${base}/always-304 answered 304`));
  });

  it('refuses an error status with its URL and status only', async () => {
    await expect(download(`${base}/status500`, LIMITS)).rejects.toThrow(failure('answered 500', `${base}/status500 answered 500`));
  });

  it('drops an error answer that keeps coming, rather than holding the connection', async () => {
    await expect(download(`${base}/endless-error`, { ...LIMITS, timeoutMs: 60_000 })).rejects.toThrow('answered 503');
    await droppedSoon('/endless-error');
  });

  it.each(['/exact', '/exact-chunked'])('accepts a body of exactly the cap (%s)', async (p) => {
    expect(await download(`${base}${p}`, LIMITS)).toMatchObject({ status: 'ok', body: Buffer.from('0123456789abcdef') });
  });

  it('refuses a body announced over the cap before reading it, and drops the connection', async () => {
    await expect(download(`${base}/over`, LIMITS)).rejects.toThrow(failure('too large', `${base}/over announced 17 bytes, over the 16-byte cap`));
    await expect(download(`${base}/announced-huge`, { ...LIMITS, timeoutMs: 60_000 })).rejects.toThrow(/announced 10737418240 bytes/);
    await droppedSoon('/announced-huge');
  });

  it('refuses a length announced over the cap on an answer that has no body (a broken 204)', async () => {
    // node's HTTP server drops Content-Length from a 204: a raw socket sends it.
    const raw = createNetServer((socket) => socket.once('data', () => socket.end('HTTP/1.1 204 No Content\r\nContent-Length: 1000\r\n\r\n')));
    await new Promise<void>((resolve) => raw.listen(0, '127.0.0.1', resolve));
    const url = `http://127.0.0.1:${(raw.address() as AddressInfo).port}/`;
    try {
      await expect(download(url, LIMITS)).rejects.toThrow(failure('too large', `${url} announced 1000 bytes, over the 16-byte cap`));
    } finally {
      await new Promise((resolve) => raw.close(resolve));
    }
  });

  it('refuses a body that grows past the cap without announcing its length', async () => {
    await expect(download(`${base}/over-chunked`, LIMITS)).rejects.toThrow(failure('too large', `${base}/over-chunked sent over the 16-byte cap`));
  });

  it('says when the whole exchange took longer than its limit', async () => {
    await expect(download(`${base}/hang`, { ...LIMITS, timeoutMs: 150 })).rejects.toThrow(failure('no answer in time', `${base}/hang did not answer within 0.15 s`));
  });

  it("names the URL and the network's own reason for a cut connection or a refused one", async () => {
    const cut = download(`${base}/cut`, { ...LIMITS, maxBytes: 1000 });
    await expect(cut).rejects.toThrow(new RegExp(`^${base}/cut: terminated \\(.+\\)$`));
    await expect(cut).rejects.toHaveProperty('cause.message', 'terminated');
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const url = `http://127.0.0.1:${(closed.address() as AddressInfo).port}/`;
    await new Promise((resolve) => closed.close(resolve));
    await expect(download(url, LIMITS)).rejects.toThrow(new RegExp(`^${url}: fetch failed \\(connect ECONNREFUSED .+\\)$`));
  });

  it('says nothing more than the error when it has no cause', async () => {
    // A validator no HTTP header can carry: fetch refuses it before any connection, with no cause.
    await expect(download(`${base}/list`, { ...LIMITS, etag: 'a\nb' })).rejects.toThrow(failure('unreachable', `${base}/list: Headers.append: "a\nb" is an invalid header value.`));
  });

  it('follows a redirect on the same host', async () => {
    expect(await download(`${base}/moved`, LIMITS)).toMatchObject({ status: 'ok', body: Buffer.from('192.0.2.1\n') });
  });

  it('never follows a redirect to another host, nor a redirect without a Location, nor one past the limit', async () => {
    await expect(download(`${base}/moved-far`, LIMITS)).rejects.toThrow(failure('redirected to another host', `${base}/moved-far redirected to localhost:9, not a host of this source; not followed`));
    await expect(download(`${base}/moved-nowhere`, LIMITS)).rejects.toThrow(failure('answered 302', `${base}/moved-nowhere answered 302 without a Location`));
    await expect(download(`${base}/hops`, LIMITS)).rejects.toThrow(failure('too many redirects', `${base}/hops redirected more than ${MAX_REDIRECTS} times`));
  });

  it('follows MAX_REDIRECTS redirects, and a redirect of any 3xx status', async () => {
    expect(await download(`${base}/chain/${MAX_REDIRECTS}`, LIMITS)).toMatchObject({ status: 'ok', body: Buffer.from('192.0.2.1\n') });
    await expect(download(`${base}/chain/${MAX_REDIRECTS + 1}`, LIMITS)).rejects.toThrow(failure('too many redirects', `${base}/chain/${MAX_REDIRECTS + 1} redirected more than ${MAX_REDIRECTS} times`));
    expect(await download(`${base}/status399`, LIMITS)).toMatchObject({ status: 'ok', body: Buffer.from('192.0.2.1\n') });
  });

  it('names any other error as failed', () => {
    expect(failureKind(new Error('x'))).toBe('failed');
    expect(failureKind(new DownloadFailure('too large', 'x'))).toBe('too large');
  });
});

describe('sameSource: where a redirect may go', () => {
  it.each([
    ['https://digitalocean.com/geo/google.csv', 'https://www.digitalocean.com/geo/google.csv', true],
    ['https://www.cloudflare.com/ips-v4', 'https://www.cloudflare.com/ips-v4/', true],
    ['https://www.cloudflare.com/ips-v4', 'https://cloudflare.com/ips-v4', true],
    ['http://127.0.0.1:8080/a', 'http://127.0.0.1:9090/b', true],
    ['https://registry.npmjs.org/x', 'https://evil.example/x.tgz', false],
    ['https://check.torproject.org/torbulkexitlist', 'https://torproject.org.evil.example/list', false],
    ['https://www.gstatic.com/ipranges/cloud.json', 'https://gstatic.com.evil.example/cloud.json', false],
    ['https://example.org/a', 'file:///etc/passwd', false],
    ['https://example.org/a', 'ftp://example.org/a', false],
    // Only a leading www. is the twin: not one inside the name.
    ['https://ex.ample.com/a', 'https://ex.www.ample.com/a', false],
  ])('%s to %s: %s', (from, to, same) => {
    expect(sameSource(new URL(from), new URL(to))).toBe(same);
  });
});
