/**
 * The analytics tab in a real Chromium: nothing loads until the tab opens, the figures
 * are the server's, a period switch asks again, the CSV export downloads the masked
 * rows, the measured accuracy counts networks, not corrections, and below its minimum says
 * there are not enough corrections yet instead of a figure, the public sees no recent
 * lookups, empty and failed answers show the empty state, and axe finds nothing. Headless Chromium is a bot to isbot, so the browser's own visits
 * are not recorded: the rows are the ones seeded here.
 */
import AxeBuilder from '@axe-core/playwright';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { Browser, BrowserContextOptions, Page } from 'playwright-core';
import { downloadText, hydrated, launchBrowser, startServer, type RunningServer } from '../support/browser-harness.ts';

const UA = 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36';
/** Seeded visitors: two from one British /24, one from an IPv6 /48 the databases place in Canada. */
const VISITORS = ['81.2.69.142', '81.2.69.160', '2001:4860:4860::8888'];

let server: RunningServer;
let browser: Browser;
beforeAll(async () => {
  [server, browser] = await Promise.all([startServer({ TRUST_PROXY: 'loopback' }), launchBrowser()]);
  for (const ip of VISITORS) {
    const res = await fetch(`${server.url}/api/lookup`, { headers: { 'user-agent': UA, 'sec-fetch-mode': 'cors', 'x-forwarded-for': ip } });
    expect(res.status).toBe(200);
  }
  // Each visitor corrects their place as the site's page posts it: the two of one /24 are one
  // network, the first one kept and the second answered as a duplicate.
  for (const [ip, latitude, status] of [[VISITORS[0]!, 50, 202], [VISITORS[1]!, 52, 200], [VISITORS[2]!, 40, 202]] as const) {
    const res = await fetch(`${server.url}/api/corrections`, {
      method: 'POST', headers: { 'x-forwarded-for': ip, 'content-type': 'application/json', 'sec-fetch-site': 'same-origin' }, body: JSON.stringify({ latitude, longitude: 0 }),
    });
    expect(res.status).toBe(status);
  }
  // The queue writes off the request path: wait until /healthz counts all five rows written.
  await vi.waitFor(async () => {
    const health = await (await fetch(`${server.url}/healthz`, { headers: { accept: 'application/json' } })).json() as { parts: { analytics: { written: number; queued: number } } };
    if (health.parts.analytics.written !== 5 || health.parts.analytics.queued !== 0) throw new Error(`the analytics queue never wrote the five rows: ${JSON.stringify(health.parts.analytics)}`);
  }, { timeout: 20_000, interval: 100 });
});
afterAll(async () => { await browser?.close(); await server?.stop(); });

/**
 * Opens `/` and waits until every island has hydrated; `asked` lists the analytics requests.
 * `quiet` settles with the page's last request of its own, the quiet lookup after the
 * WebRTC check, which runs once the page has loaded and the browser is idle.
 */
async function open(base: string, options: BrowserContextOptions = {}) {
  const context = await browser.newContext(options);
  const page = await context.newPage();
  const asked: string[] = [];
  page.on('request', (r) => { if (r.url().includes('/api/analytics')) asked.push(new URL(r.url()).search); });
  const quiet = page.waitForResponse((r) => r.url().endsWith('/api/lookup') && r.request().headers()['x-lookup-update'] === '1', { timeout: 15_000 });
  quiet.catch(() => undefined);
  await page.goto(`${base}/`);
  await hydrated(page);
  return { context, page, asked, quiet };
}

const figure = (page: Page, id: string) => page.locator(`[data-figure="${id}"] .figure-value`);

describe('for the operator (loopback)', () => {
  it('asks nothing until the tab opens, then shows the period\'s figures; a period switch asks again', async () => {
    const { context, page, asked, quiet } = await open(server.url);
    await quiet;
    expect(asked).toEqual([]);
    const first = page.waitForResponse((r) => r.url().endsWith('/api/analytics?period=7d'));
    await page.getByRole('tab', { name: 'Analytics' }).click();
    expect((await first).status()).toBe(200);
    await expect.poll(() => figure(page, 'lookups').textContent(), { timeout: 20_000 }).toBe('3');
    expect(await figure(page, 'networks').textContent()).toBe('2');
    expect(await page.getByRole('list', { name: 'Top countries' }).getByRole('listitem').allTextContents())
      .toEqual(['United Kingdom2 (66.7%)', 'Canada1 (33.3%)']);
    expect(await page.getByRole('img', { name: 'Lookups per day (UTC)' }).count()).toBe(1);

    const second = page.waitForResponse((r) => r.url().endsWith('/api/analytics?period=24h'));
    await page.getByLabel('Period').selectOption('24h');
    expect((await second).status()).toBe(200);
    await page.getByRole('img', { name: 'Lookups per hour (UTC)' }).waitFor();
    await page.getByText('Show the values').click();
    expect(await page.locator('.activity tbody tr').count()).toBe(24);
    expect(asked).toEqual(['?period=7d', '?period=24h']);
    await context.close();
  });

  it('says there are not enough corrections yet, with the networks and providers they come from, and shows no figure', async () => {
    const { context, page } = await open(server.url);
    await page.getByRole('tab', { name: 'Analytics' }).click();
    const accuracy = page.locator('.accuracy');
    // The two of one /24 count once: two networks, far below the minimum of 20 networks of 10 providers.
    await accuracy.getByText(/^Not enough corrections yet: figures are shown once corrections come from at least 20 networks of at least 10 different providers\. This period has 2 networks of 2 providers\.$/).waitFor();
    expect(await accuracy.locator('table').count()).toBe(0);
    await context.close();
  });

  it('lists the recent lookups masked and exports them as CSV', async () => {
    const { context, page } = await open(server.url);
    await page.getByRole('tab', { name: 'Analytics' }).click();
    const table = page.getByRole('table', { name: 'Recent lookups' });
    await table.waitFor();
    expect(await table.locator('tbody td:first-child').allTextContents()).toEqual(['2001:4860:4860::/48', '81.2.69.x', '81.2.69.x']);
    const download = page.waitForEvent('download');
    await page.getByRole('link', { name: 'Export CSV' }).click();
    const file = await download;
    expect(file.suggestedFilename()).toBe('ip-analytics-7d.csv');
    const lines = (await downloadText(file)).trim().split('\r\n');
    expect(lines[0]).toBe('ip,city,country,vpn_detected,timestamp');
    expect(lines.slice(1).map((l) => l.split(',')[0])).toEqual(['2001:4860:4860::/48', '81.2.69.x', '81.2.69.x']);
    for (const ip of VISITORS) expect(lines.join('\n')).not.toContain(ip);
    await context.close();
  });

  it('passes axe with the tab open and its values shown', async () => {
    const { context, page } = await open(server.url);
    await page.getByRole('tab', { name: 'Analytics' }).click();
    await page.getByRole('table', { name: 'Recent lookups' }).waitFor();
    await page.getByText('Show the values').click();
    const { violations } = await new AxeBuilder({ page }).include('#panel-analytics').analyze();
    expect(violations.map((v) => `${v.id}: ${v.help} ${v.nodes.map((n) => n.target.join(' ')).join(' | ')}`)).toEqual([]);
    await context.close();
  });
});

describe('for the public', () => {
  it('shows the figures without recent lookups or the export', async () => {
    const { context, page } = await open(server.url, { extraHTTPHeaders: { 'x-forwarded-for': '8.8.8.8' } });
    await page.getByRole('tab', { name: 'Analytics' }).click();
    await expect.poll(() => figure(page, 'lookups').textContent(), { timeout: 20_000 }).toBe('3');
    expect(await page.getByText('Recent lookups').count()).toBe(0);
    expect(await page.getByRole('link', { name: 'Export CSV' }).count()).toBe(0);
    await context.close();
  });
});

describe('with nothing to show', () => {
  it('says so when the period has no lookups', async () => {
    const empty = await startServer({ TRUST_PROXY: 'loopback' });
    try {
      const { context, page } = await open(empty.url);
      await page.getByRole('tab', { name: 'Analytics' }).click();
      await page.getByText('No analytics data available').waitFor();
      expect(await page.locator('[data-figure]').count()).toBe(0);
      await context.close();
    } finally {
      await empty.stop();
    }
  });

  it('says so when the request fails', async () => {
    const { context, page } = await open(server.url);
    await page.route('**/api/analytics?*', (route) => route.abort());
    await page.getByRole('tab', { name: 'Analytics' }).click();
    await page.getByText('No analytics data available').waitFor();
    expect(await page.locator('[data-figure]').count()).toBe(0);
    await context.close();
  });
});
