import { describe, expect, it } from 'vitest';
import { loadConfig } from '../config.ts';
import { createLimitClasses } from '../rate-limit/limit.ts';
import { createApp } from './app.ts';
import { json, type AppRequest, type Handler } from './handler.ts';
import { Health } from './health.ts';
import { routeTable, type Route } from './route-table.ts';
import type { StaticSite } from './static-site.ts';

const config = loadConfig({ HOST: '127.0.0.1', PORT: '0', REVERSE_DNS: 'off' });
const NO_FILES: StaticSite = { get: () => undefined, notFoundPage: () => undefined, size: 0 };
const ok = (body: unknown): Handler => () => json(200, body, { 'access-control-expose-headers': 'Server-Timing' });
const appOf = (rows: Route[], limits = {}) => createApp({ config, site: NO_FILES, routes: routeTable(rows, limits), health: new Health() });
/** A public client: the limits count it (private and loopback clients are exempt). */
const PUBLIC = '8.8.8.8';

describe('the route table, through the app', () => {
  const app = appOf([
    { path: '/open', cors: true, handler: ok('open') },
    { path: '/own', handler: ok('own') },
    { path: '/operator', cors: true, handler: () => ({ ...json(200, 'operator'), cors: false }) },
  ]);

  it('gives Access-Control-Allow-Origin only to the answers of rows that opt in', async () => {
    const open = await app.request('/open');
    expect([open.status, open.headers.get('access-control-allow-origin'), open.headers.get('access-control-expose-headers')]).toEqual([200, '*', 'Server-Timing']);
    const own = await app.request('/own');
    expect([own.status, await own.json(), own.headers.get('access-control-allow-origin'), own.headers.get('access-control-expose-headers')]).toEqual([200, 'own', null, null]);
  });

  it('keeps an answer that says cors: false without it, in a row that opts in', async () => {
    expect((await app.request('/operator')).headers.get('access-control-allow-origin')).toBeNull();
  });

  it('leaves a path no row claims to the 404, readable from any origin as before', async () => {
    const res = await app.request('/elsewhere');
    expect([res.status, await res.text(), res.headers.get('access-control-allow-origin')]).toEqual([404, 'Not found\n', '*']);
  });

  it('counts a request in the class its row names, and no other', async () => {
    const limited = appOf([
      { path: '/counted', limit: ['port-check'], cors: true, handler: ok('counted') },
      { path: '/free', cors: true, handler: ok('free') },
    ], createLimitClasses({ rateLimit: 0, pageRateLimit: 0, portCheck: { perMinute: 2 }, dnsLeakRateLimit: 0 }));
    const statuses = [];
    for (let i = 0; i < 3; i++) statuses.push((await limited.request('/counted', { peer: PUBLIC })).status);
    expect(statuses).toEqual([200, 200, 429]);
    const refused = await limited.request('/counted', { peer: PUBLIC });
    expect([refused.headers.get('ratelimit-limit'), refused.headers.get('access-control-allow-origin')]).toEqual(['2', '*']);
    const free = await limited.request('/free', { peer: PUBLIC });
    expect([free.status, free.headers.get('ratelimit-limit')]).toEqual([200, null]);
  });

  it('strips the limit\'s expose list from a refusal of a row without CORS', async () => {
    const limited = appOf([{ prefix: '/port/', limit: ['port-check'], handler: ok('port') }],
      createLimitClasses({ rateLimit: 0, pageRateLimit: 0, portCheck: { perMinute: 1 }, dnsLeakRateLimit: 0 }));
    await limited.request('/port/1', { peer: PUBLIC });
    const refused = await limited.request('/port/1', { peer: PUBLIC });
    expect([refused.status, refused.headers.get('ratelimit-limit'), refused.headers.get('access-control-expose-headers')]).toEqual([429, '1', null]);
  });
});

describe('routeTable', () => {
  const req = (path: string, init: Partial<AppRequest> & { host?: string } = {}): AppRequest =>
    ({ method: 'GET', path, query: new URLSearchParams(), headers: { get: (n: string) => (n === 'host' ? init.host ?? null : null) }, clientIp: '127.0.0.1', clientAddress: undefined, body: async () => Buffer.alloc(0), ...init });
  const asked: string[] = [];
  const named = (name: string, answers = true): Handler => () => { asked.push(name); return answers ? json(200, name) : undefined; };

  it.each<[string, Route, string, Partial<AppRequest> & { host?: string }, boolean]>([
    ['an exact path', { path: '/a', handler: named('x') }, '/a', {}, true],
    ['not a longer one', { path: '/a', handler: named('x') }, '/a/b', {}, false],
    ['a prefix', { prefix: '/p/', handler: named('x') }, '/p/1/2', {}, true],
    ['one segment under', { under: '/u/', handler: named('x') }, '/u/1', {}, true],
    ['not two segments under', { under: '/u/', handler: named('x') }, '/u/1/2', {}, false],
    ['not the bare prefix under', { under: '/u/', handler: named('x') }, '/u/', {}, false],
    ['a pattern', { pattern: /^\/as\d+$/i, handler: named('x') }, '/AS15169', {}, true],
    ['a method it names', { path: '/m', methods: ['POST'], handler: named('x') }, '/m', { method: 'POST' }, true],
    ['not one it does not', { path: '/m', methods: ['POST'], handler: named('x') }, '/m', { method: 'GET' }, false],
    ['its host, with a port', { path: '/h', host: 'api.example', handler: named('x') }, '/h', { host: 'API.example:8080' }, true],
    ['not another host', { path: '/h', host: 'api.example', handler: named('x') }, '/h', { host: 'www.example' }, false],
    ['not a host row without a Host header', { path: '/h', host: 'api.example', handler: named('x') }, '/h', {}, false],
    ['an IPv6 literal host, its own colons kept', { path: '/h', host: '[2001:db8::1]', handler: named('x') }, '/h', { host: '[2001:db8::1]:8080' }, true],
    ['a condition that holds', { path: '/w', when: (r) => r.query.has('q'), handler: named('x') }, '/w', { query: new URLSearchParams('q=1') }, true],
    ['not one that does not', { path: '/w', when: (r) => r.query.has('q'), handler: named('x') }, '/w', {}, false],
  ])('claims %s', (_, row, path, init, claimed) => {
    expect(routeTable([row]).answer(req(path, init)) !== undefined).toBe(claimed);
  });

  it('asks the next row that claims a request when a handler passes, synchronously', () => {
    asked.length = 0;
    const table = routeTable([{ path: '/x', handler: named('first', false) }, { path: '/y', handler: named('other') }, { prefix: '/', handler: named('last') }]);
    const answer = table.answer(req('/x'));
    expect(answer).not.toBeInstanceOf(Promise);
    expect([answer && (answer as { body: string }).body, asked]).toEqual(['"last"\n', ['first', 'last']]);
  });

  it('asks the next row that claims a request when a handler passes later, with a promise', async () => {
    const table = routeTable([{ path: '/x', handler: () => Promise.resolve(undefined) }, { path: '/x', handler: named('second') }]);
    const answer = table.answer(req('/x'));
    expect(answer).toBeInstanceOf(Promise);
    expect(((await answer) as { body: string }).body).toBe('"second"\n');
  });

  it('takes CORS away from an answer of a row that does not opt in, even one that asks for it', async () => {
    const table = routeTable([{ path: '/own', handler: () => ({ ...json(200, 'own'), cors: true }) }]);
    expect(((await table.answer(req('/own'))) as { cors?: boolean }).cors).toBe(false);
  });

  it('knows its pages and their shells', () => {
    const locals = () => ({ clientIp: '', lookup: null, clientConfig: config.client });
    const table = routeTable([
      { path: '/', page: { locals, shell: true } },
      { under: '/lookup/', page: { locals, shell: true } },
      { path: '/hub', page: { locals } },
      { path: '/api', handler: named('api') },
    ]);
    expect(['/', '/lookup/1.1.1.1', '/lookup/', '/hub', '/api'].map(table.isPage)).toEqual([true, true, false, true, false]);
    expect(table.page('/hub')?.path).toBe('/hub');
    expect(table.shellPages).toEqual([{ path: '/', prefix: false }, { path: '/lookup/', prefix: true }]);
  });

  it.each<[string, Route]>([
    ['no match', { handler: named('x') } as Route],
    ['two matches', { path: '/a', prefix: '/a', handler: named('x') }],
    ['a shell page matched by pattern', { pattern: /x/, page: { locals: () => ({ clientIp: '', lookup: null, clientConfig: config.client }), shell: true } }],
  ])('refuses a row with %s', (_, row) => {
    expect(() => routeTable([row])).toThrow(/^route /);
  });

  it('names a refused row by its first matcher', () => {
    expect(() => routeTable([{ prefix: '/a/', pattern: /x/, handler: named('x') }])).toThrow(/^route \/a\/: give exactly one/);
  });
});
