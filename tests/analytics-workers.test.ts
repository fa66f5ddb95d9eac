/**
 * Two worker processes (WEB_CONCURRENCY=2) record into one SQLite file at the same time:
 * no "database is locked", no degraded store, and SIGTERM writes what each still queues,
 * so every recorded lookup is in the file after the server stops.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { DatabaseSync } from 'node:sqlite';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, expect, it, vi } from 'vitest';
import { startServer } from './support/browser-harness.ts';

const dataDir = mkdtempSync(path.join(tmpdir(), 'analytics-workers-'));
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

const BROWSER = {
  'user-agent': 'Mozilla/5.0 (Macintosh; Intel Mac OS X 14_5) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Safari/605.1.15',
  'sec-fetch-mode': 'cors',
};

it('writes every lookup from both workers into one SQLite file, and flushes on SIGTERM', async () => {
  const server = await startServer({ WEB_CONCURRENCY: '2', DATA_DIR: dataDir, TRUST_PROXY: 'loopback' });
  try {
    // Both workers listen before the burst, so connections go to both.
    await vi.waitFor(() => expect((server.output().match(/listening on/g) ?? []).length).toBeGreaterThanOrEqual(2), { timeout: 10_000, interval: 100 }).catch(() => undefined);
    expect((server.output().match(/listening on/g) ?? []).length).toBe(2);
    const N = 2000;
    const states = new Set<string>();
    let next = 0;
    const worker = async () => {
      while (next < N) {
        const i = next++;
        const res = await fetch(`${server.url}/api/lookup`, { headers: { ...BROWSER, 'x-forwarded-for': `2a02:${(i % 500).toString(16)}:${i.toString(16)}::1` } });
        expect(res.status).toBe(200);
        await res.arrayBuffer();
        if (i % 200 === 0) {
          const health = await (await fetch(`${server.url}/healthz`, { headers: { accept: 'application/json' } })).json();
          states.add(health.parts.analytics.state);
        }
      }
    };
    await Promise.all(Array.from({ length: 40 }, worker));
    expect([...states]).toEqual(['ok']);
  } finally {
    expect(await server.stop()).toBe(0);
  }
  expect(server.output()).not.toMatch(/locked|busy|dropped|cannot open/i);
  const db = new DatabaseSync(path.join(dataDir, 'analytics.sqlite'), { readOnly: true });
  try {
    expect(db.prepare('SELECT count(*) AS n FROM analytics_lookups').get()).toEqual({ n: 2000 });
    expect(db.prepare('SELECT SUM(lookups) AS n FROM analytics_lookup_days').get()).toEqual({ n: 2000 });
  } finally {
    db.close();
  }
}, 120_000);
