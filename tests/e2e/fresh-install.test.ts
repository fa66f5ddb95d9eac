/**
 * A fresh install, as a new user starts it: an empty DATA_DIR, no command run, the data
 * refresher on (its default) with every source on a local server serving the upstreams'
 * real formats (tests/support/fixture-server.ts). Within 10 s of start, `/` shows a listed
 * address as a Tor exit, its reason naming the list and its age.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { Browser } from 'playwright-core';
import { hydrated, launchBrowser, startServer, type RunningServer } from '../support/browser-harness.ts';
import { fixtureEnv, startFixtureServer, type FixtureServer } from '../support/fixture-server.ts';

const TOR_EXIT = '185.220.101.1';
let upstream: FixtureServer;
let server: RunningServer;
let browser: Browser;
let started: number;

beforeAll(async () => {
  upstream = await startFixtureServer();
  started = Date.now();
  [server, browser] = await Promise.all([
    startServer({ TRUST_PROXY: 'loopback', DATA_DIR: mkdtempSync(path.join(tmpdir(), 'fresh-install-')), DATA_REFRESH: 'on', ...fixtureEnv(upstream.base) }),
    launchBrowser(),
  ]);
});
afterAll(async () => { await browser?.close(); await server?.stop(); await upstream?.close(); });

describe('a fresh install', () => {
  it('shows a Tor exit on / within 10 s of start, with the list and its age, without a command', async () => {
    const context = await browser.newContext({ extraHTTPHeaders: { 'x-forwarded-for': TOR_EXIT } });
    const page = await context.newPage();
    const verdict = page.getByTestId('vpn-verdict');
    const torExit = verdict.getByRole('listitem').filter({ hasText: 'Tor exit' });
    // The server answers at once; the page says Tor once the first fetch has landed.
    await vi.waitFor(async () => {
      await page.goto(`${server.url}/`);
      await hydrated(page);
      if (!(await torExit.count())) throw new Error('no Tor exit on / yet');
    }, { timeout: Math.max(0, 10_000 - (Date.now() - started)), interval: 200 }).catch(() => undefined);
    const seconds = (Date.now() - started) / 1000;
    expect(seconds).toBeLessThan(10);
    await expect(torExit.first().textContent()).resolves.toMatch(/^Tor exit: Listed in the Tor Project's list of exit relays \(the Tor Project's exit list, fetched just now\)/);
    await expect(page.locator('[data-badge="vpn"]').textContent()).resolves.toBe('Tor exit');
    await context.close();
  });

  it('says on /healthz where each list came from and how old it is', async () => {
    const text = await (await fetch(`${server.url}/healthz`)).text();
    expect(text).toMatch(/^source tor: ok, fetched \S+ \(just now\), 4 ranges into tor, next \S+$/m);
    expect(text).toMatch(/^source aws: ok, fetched .* into hosting/m);
  });
});
