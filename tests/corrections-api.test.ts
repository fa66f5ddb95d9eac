/**
 * POST /api/corrections over HTTP on the real databases. The caller's address comes from
 * X-Forwarded-For through a trusted loopback proxy, as behind a load balancer, so the
 * server has a public address to look up.
 */
import type { AddressInfo } from 'node:net';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi, type MockInstance } from 'vitest';
import { ApiErrorSchema } from '../src/lib/record.ts';
import { loadConfig } from '../src/server/config.ts';
import { nearerSource } from '../src/server/corrections-api.ts';
import type { CorrectionEvent } from '../src/lib/correction.ts';
import { createAppServer, type AppServer } from '../src/server/server.ts';

let app: AppServer;
let url: string;
/** What reached the analytics store's recordCorrection (the real store, in a temporary SQLite file). */
let recordSpy: MockInstance<(event: CorrectionEvent) => void>;
beforeAll(async () => {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'corrections-'));
  app = await createAppServer(loadConfig({ HOST: '127.0.0.1', PORT: '0', TRUST_PROXY: 'loopback', DATA_DIR: dataDir }), 'dist');
  recordSpy = vi.spyOn(app.routes.analytics, 'recordCorrection');
  await new Promise<void>((resolve) => app.server.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  await new Promise<void>((resolve) => { app.server.closeAllConnections(); app.server.close(() => resolve()); });
  await app.routes.analytics.close();
});

const MUNICH = { latitude: 48.13743, longitude: 11.57549 };
const recorded = (): CorrectionEvent[] => recordSpy.mock.calls.map(([event]) => event);

function correct(body: unknown, headers: Record<string, string> = {}, from = '8.8.8.8') {
  return fetch(`${url}/api/corrections`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-forwarded-for': from, ...headers },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });
}

describe('POST /api/corrections', () => {
  it("records the distance from the caller's IP-based place, its country and network, and never the address", async () => {
    const before = recorded().length;
    const res = await correct(MUNICH);
    expect(res.status).toBe(202);
    const body = await res.json() as { recorded: boolean; correction: Record<string, unknown> };
    expect(body.recorded).toBe(true);
    const lookup = await (await fetch(`${url}/api/lookup/8.8.8.8`)).json() as { data: { latitude: number; longitude: number; network_type: string } };
    expect(recorded()).toHaveLength(before + 1);
    const event = recorded().at(-1)!;
    expect(event).toEqual(body.correction);
    expect(event.country_code).toBe('US');
    expect(event.network_type).toBe(lookup.data.network_type);
    // Mountain View to Munich is about 9,400 km.
    expect(event.distance_km).toBeGreaterThan(9000);
    expect(event.distance_km).toBeLessThan(9800);
    expect(Object.keys(event).sort()).toEqual(['country_code', 'distance_km', 'nearer_source', 'network_type']);
    expect(JSON.stringify(event)).not.toContain('8.8.8');
    expect(res.headers.get('access-control-allow-origin')).toBe('*');
  });

  it('refuses a body that names an address: only the caller is ever looked up', async () => {
    const res = await correct({ ...MUNICH, ip: '1.1.1.1' });
    expect(res.status).toBe(400);
  });

  it.each([
    ['Sec-GPC: 1', { 'sec-gpc': '1' }],
    ['DNT: 1', { dnt: '1' }],
  ])('records nothing with %s', async (_, headers) => {
    const before = recorded().length;
    const res = await correct(MUNICH, headers);
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({ recorded: false });
    expect(recorded()).toHaveLength(before);
  });

  it('records with DNT: 0 (the header says tracking is allowed)', async () => {
    const before = recorded().length;
    expect((await correct(MUNICH, { dnt: '0' })).status).toBe(202);
    expect(recorded()).toHaveLength(before + 1);
  });

  it('records nothing for a caller whose address has no place (a private network)', async () => {
    const before = recorded().length;
    const res = await correct(MUNICH, {}, '10.1.2.3');
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({ recorded: false });
    expect(recorded()).toHaveLength(before);
  });

  it.each<[string, unknown]>([
    ['latitude exactly 90 and longitude exactly -180', { latitude: 90, longitude: -180 }],
    ['latitude exactly -90 and longitude exactly 180', { latitude: -90, longitude: 180 }],
  ])('accepts %s', async (_, body) => {
    expect((await correct(body)).status).toBe(202);
  });

  it.each<[string, unknown, string]>([
    ['latitude just past 90', { latitude: 90.0001, longitude: 0 }, 'invalid_request'],
    ['longitude just past -180', { latitude: 0, longitude: -180.0001 }, 'invalid_request'],
    ['a missing longitude', { latitude: 1 }, 'invalid_request'],
    ['coordinates as text', { latitude: '48.1', longitude: '11.5' }, 'invalid_request'],
    ['an extra field', { ...MUNICH, city: 'Munich' }, 'invalid_request'],
    ['an array', [48.1, 11.5], 'invalid_request'],
    ['null', 'null', 'invalid_request'],
    ['not JSON', '{latitude: 48}', 'bad_json'],
    ['an empty body', '', 'bad_json'],
  ])('refuses %s with a 400', async (_, body, code) => {
    const before = recorded().length;
    const res = await correct(body);
    expect(res.status).toBe(400);
    expect(ApiErrorSchema.parse(await res.json()).error.code).toBe(code);
    expect(recorded()).toHaveLength(before);
  });

  it('refuses GET with 405', async () => {
    const res = await fetch(`${url}/api/corrections`);
    expect(res.status).toBe(405);
    expect(res.headers.get('allow')).toBe('POST');
  });
});

describe('nearerSource', () => {
  const at = (source: string, city: string, latitude: number) => ({ source, city, latitude, longitude: 0 });
  it.each<[string, ReturnType<typeof at>[], string]>([
    ['no source named a city', [], 'unknown'],
    ['a source with only a country does not count', [at('dbip-city', '', 10)], 'unknown'],
    ['only one source named a city', [at('dbip-city', 'A', 10)], 'tie'],
    ['the first is nearer', [at('dbip-city', 'A', 1), at('geolite2-city', 'B', 2)], 'dbip-city'],
    ['the second is nearer', [at('dbip-city', 'A', 2), at('geolite2-city', 'B', 1)], 'geolite2-city'],
    ['both equally near', [at('dbip-city', 'A', 1), at('geolite2-city', 'B', -1)], 'tie'],
    ['within 0.1 km of each other is a tie', [at('dbip-city', 'A', 1), at('geolite2-city', 'B', 1.0001)], 'tie'],
  ])('%s: %s', (_, places, expected) => {
    expect(nearerSource(places, 0, 0)).toBe(expected);
  });
});
