/**
 * Every request gets an answer within the server's time limits, over raw sockets (the
 * exact bytes, backslashes included): paths that Astro's URL parsing would route elsewhere
 * than dispatch did (dot segments, backslashes, encoded dots) get the answer of any other
 * `/lookup/{not-an-address}`; whatever a page render or a handler leaves unanswered gets
 * dispatch's last resort (src/server/http/answer-deadline.ts); and slow clients are cut within a
 * second or two of headersTimeout and requestTimeout.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createApp } from '../src/server/http/app.ts';
import { routeTable } from '../src/server/http/route-table.ts';
import { createRenderedAnswer } from '../src/server/shell/rendered-answer.ts';
import type { PageRenderer } from '../src/server/shell/render-capture.ts';
import { loadConfig } from '../src/server/config.ts';
import { Health } from '../src/server/http/health.ts';
import { loadStaticSite } from '../src/server/http/static-site.ts';
import { startTestServer, type TestServer } from './support/http-harness.ts';
import { rawExchange } from './support/raw-http.ts';

const get = (path: string, accept = 'text/html') => `GET ${path} HTTP/1.1\r\nHost: x\r\nAccept: ${accept}\r\nUser-Agent: Mozilla/5.0\r\nConnection: close\r\n\r\n`;
const portOf = (server: Server) => (server.address() as AddressInfo).port;

describe('the last resort, with page renders that answer nothing', () => {
  const DEADLINE_MS = 300;
  const never = () => new Promise<void>(() => {});
  /** Page renders by path, each failing to answer in its own way. */
  const RENDERS: Record<string, PageRenderer> = {
    // What Astro's middleware does when it finds no route: calls next(), writes nothing, resolves.
    '/no-route': async () => {},
    '/hangs': never,
    '/stalls-midway': async (_req, res) => { res.writeHead(200, { 'content-type': 'text/html' }); res.write('<!doctype html>'); await never(); },
    '/stops-midway': async (_req, res) => { res.writeHead(200, { 'content-type': 'text/html' }); res.write('<!doctype html>'); },
  };
  const errors = vi.fn();
  let server: Server;
  beforeAll(async () => {
    const config = loadConfig({ HOST: '127.0.0.1', PORT: '0', REVERSE_DNS: 'off' });
    const app = createApp({
      config, site: loadStaticSite('dist'), health: new Health(), answerDeadlineMs: DEADLINE_MS,
      routes: routeTable([
        { path: '/api/hangs', cors: true, handler: () => never().then(() => undefined) },
        ...Object.keys(RENDERS).map((path) => ({ path, page: { locals: () => ({ clientIp: '127.0.0.1', lookup: null, clientConfig: config.client }) } })),
      ]),
      page: { rendered: createRenderedAnswer((req, res, locals) => RENDERS[req.url!]!(req, res, locals)) },
    });
    vi.spyOn(console, 'error').mockImplementation(errors);
    server = createServer(app);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  });
  afterAll(async () => {
    vi.restoreAllMocks();
    await new Promise<void>((resolve) => { server.closeAllConnections(); server.close(() => resolve()); });
  });

  it('answers 404 with the site\'s page when a render answered nothing, and logs it in one line', async () => {
    errors.mockClear();
    const answer = await rawExchange(portOf(server), get('/no-route'));
    expect(answer.status).toBe(404);
    expect(answer.complete).toBe(true);
    expect(answer.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(errors.mock.calls.map((call) => String(call[0]))).toEqual(['no answer made: GET /no-route: answered 404']);
  });

  it.each(['/hangs', '/api/hangs'])('answers %s 503 in JSON after the deadline, and closes the connection', async (path) => {
    errors.mockClear();
    // Keep-alive asked: the server closes the connection all the same.
    const answer = await rawExchange(portOf(server), `GET ${path} HTTP/1.1\r\nHost: x\r\n\r\n`);
    expect(answer.status).toBe(503);
    expect(answer.complete).toBe(true);
    expect(answer.ms).toBeGreaterThanOrEqual(DEADLINE_MS - 10);
    expect(answer.headers.get('connection')).toBe('close');
    expect(JSON.parse(answer.body.toString()).error.code).toBe('timeout');
    expect(errors.mock.calls.map((call) => String(call[0]))).toEqual([`no answer in ${DEADLINE_MS} ms: GET ${path}: answered 503`]);
  });

  // A page is rendered whole before any of it is sent (src/server/shell/rendered-answer.ts), so a
  // render that stops or stalls midway can still be answered in full.
  it('answers a render that stalls midway with the 503 of the deadline, none of the half page', async () => {
    errors.mockClear();
    const answer = await rawExchange(portOf(server), get('/stalls-midway'));
    expect(answer.status).toBe(503);
    expect(answer.complete).toBe(true);
    expect(answer.body.toString()).not.toContain('<!doctype html>');
    expect(errors.mock.calls.map((call) => String(call[0]))).toEqual([`no answer in ${DEADLINE_MS} ms: GET /stalls-midway: answered 503`]);
  });

  it('answers a render that stops midway with a 500, logged, none of the half page', async () => {
    errors.mockClear();
    const answer = await rawExchange(portOf(server), get('/stops-midway'));
    expect(answer.status).toBe(500);
    expect(answer.complete).toBe(true);
    expect(answer.body.toString()).not.toContain('<!doctype html>');
    expect(errors.mock.calls.map((call) => String(call[0]))).toEqual([expect.stringMatching(/^request failed: GET \/stops-midway: Error: the render of \/stops-midway stopped before its end/)]);
  });
});

/** Dot segments, encoded dots and slashes, double encoding, backslashes, overlong UTF-8, NUL. */
const LOOKUP_PATHS = [
  '/lookup/.', '/lookup/%2E', '/lookup/a\\', '/lookup/\\\\evil.com', '/lookup/..', '/lookup/%2e%2e', '/lookup/.%2e',
  '/lookup/%252e', '/lookup/%5c', '/lookup/%5C..', '/lookup/.\\', '/lookup/\\..\\..\\etc\\passwd', '/lookup/8.8.8.8\\',
  '/lookup/%00', '/lookup/8.8.8.8%00', '/lookup/%25', '/lookup/%c0%ae', '/lookup/%c0%af', '/lookup/%e0%80%ae',
];
const OTHER_PATHS = [
  '/lookup/%2f', '/lookup/%2F..', '/\\evil.com', '/\\\\evil.com', '/.', '/..', '/%2e', '/%2e%2e', '/%5c', '/ip-2/..', '/ip-2/.', '/ip-2\\',
  '/api/lookup/.', '/api/lookup/..', '/api/lookup/%2e%2e', '/api/lookup/a\\', '/api/lookup/\\\\evil.com', '/api/lookup/%c0%ae',
  '/json/..', '/json\\', '/AS15169/..', '/AS%2e%2e', '/_astro/..%2f..%2fpackage.json', '/_astro/%2e%2e/package.json',
  '/_astro/\\..\\package.json', '/_astro/%252e%252e/package.json', '/favicon.svg/..', '/favicon.svg%00', '/blog/%2e%2e/%2e%2e/etc/passwd',
];

describe('paths that URL parsing normalises, over a raw socket', () => {
  let server: TestServer;
  let port: number;
  // A short deadline: a path that reaches no answer is answered by it well inside the 2 s asked.
  beforeAll(async () => {
    server = await startTestServer({}, { answerDeadline: 1_000 });
    port = Number(new URL(server.url).port);
  }, 60_000);
  afterAll(() => server?.close());

  const ACCEPTS = ['text/html', 'application/json'];
  it.each(LOOKUP_PATHS.flatMap((path) => ACCEPTS.map((accept) => [path, accept])))('answers %s (Accept: %s) 400 within 2 s, as any lookup of a non-address', async (path, accept) => {
    const answer = await rawExchange(port, get(path, accept));
    expect(answer.complete).toBe(true);
    expect(answer.status).toBe(400);
    expect(answer.ms).toBeLessThan(2_000);
  });

  it.each(OTHER_PATHS.flatMap((path) => ACCEPTS.map((accept) => [path, accept])))('answers %s (Accept: %s) with a 4xx within 2 s', async (path, accept) => {
    const answer = await rawExchange(port, get(path, accept));
    expect(answer.complete).toBe(true);
    expect(answer.status).toBeGreaterThanOrEqual(400);
    expect(answer.status).toBeLessThan(500);
    expect(answer.ms).toBeLessThan(2_000);
  });

  it('shows the page of the address asked, not the home page, for /lookup/..', async () => {
    const [dots, word] = await Promise.all([rawExchange(port, get('/lookup/..')), rawExchange(port, get('/lookup/foo'))]);
    const heading = (body: Buffer) => /<h1[^>]*>([^<]*)<\/h1>/.exec(body.toString())?.[1];
    expect(heading(dots.body)).toContain('..');
    expect(heading(dots.body)).toBe(heading(word.body)!.replace('foo', '..'));
  });
});

describe('slow clients, with headersTimeout 1 s and requestTimeout 3 s', () => {
  const LIMITS = { headersTimeout: 1_000, requestTimeout: 3_000 };
  let server: TestServer;
  let port: number;
  beforeAll(async () => {
    server = await startTestServer({}, LIMITS);
    port = Number(new URL(server.url).port);
  }, 60_000);
  afterAll(() => server?.close());

  it('cuts headers sent a byte a second within headersTimeout + 2 s', async () => {
    const answer = await rawExchange(port, 'GET /ip HTTP/1.1\r\nHost: x\r\n', { drip: 'X-Slow: ' + 'a'.repeat(60), timeoutMs: LIMITS.headersTimeout + 2_000 });
    expect(answer.closed).toBe(true);
    if (answer.status) expect(answer.status).toBe(408);
  }, 10_000);

  it('cuts a body sent a byte a second within requestTimeout + 2 s', async () => {
    const head = 'POST /api/lookup/bulk HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n';
    const answer = await rawExchange(port, head, { drip: '["8.8.8.8"' + ' '.repeat(90), timeoutMs: LIMITS.requestTimeout + 2_000 });
    expect(answer.closed).toBe(true);
    if (answer.status) expect(answer.status).toBe(408);
  }, 10_000);
});
