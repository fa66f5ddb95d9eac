/**
 * axe with every tab of the home page opened, /ip-2 and /ip-4 once loaded, and the
 * error screen; and layout shift on load, measured in the browser.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import AxeBuilder from '@axe-core/playwright';
import type { Browser, Page } from 'playwright-core';
import { hydrated, launchBrowser } from '../support/browser-harness.ts';
import { sharedServer, type SharedServer } from '../support/e2e-fixture.ts';

let server: SharedServer;
let browser: Browser;
beforeAll(async () => { server = sharedServer(); browser = await launchBrowser(); });
afterAll(async () => { await browser?.close(); });

async function violations(page: Page, label: string): Promise<string[]> {
  const { violations: found } = await new AxeBuilder({ page }).analyze();
  return found.map((v) => `${label}: ${v.id} (${v.nodes.length}) ${v.help} ${v.nodes.map((n) => n.target.join(' ')).join(' | ')}`);
}

it('finds no violations on /, each tab opened, nor on /ip-2, /ip-4 and the error screen', async () => {
  const context = await browser.newContext({ extraHTTPHeaders: { 'x-forwarded-for': '8.8.8.8' } });
  const page = await context.newPage();
  const failures: string[] = [];
  await page.goto(`${server.url}/`, { waitUntil: 'load' });
  await hydrated(page);
  for (const name of ['Overview', 'VPN', 'Map']) {
    await page.getByRole('tab', { name }).click();
    if (name === 'Map') await page.locator('.leaflet-marker-icon').waitFor();
    failures.push(...await violations(page, `/ ${name}`));
  }
  for (const path of ['/ip-2', '/ip-4']) {
    await page.goto(`${server.url}${path}`, { waitUntil: 'load' });
    if (path === '/ip-2') {
      await page.getByTestId('map').scrollIntoViewIfNeeded();
      await page.locator('.leaflet-marker-icon').waitFor();
    } else await page.locator('[data-testid="vpn-panel"]:not([data-kind="general"])').waitFor();
    failures.push(...await violations(page, path));
  }
  await page.route('**/api/lookup', (route) => route.abort());
  await page.goto(`${server.url}/ip-4`, { waitUntil: 'load' });
  await page.getByRole('alertdialog').waitFor();
  failures.push(...await violations(page, '/ip-4 error'));
  await context.close();
  expect(failures).toEqual([]);
  // Seven axe scans: about 100 s on a busy two-core machine.
}, 180_000);

it.each([
  ['desktop', { width: 1280, height: 720 }],
  ['phone', { width: 375, height: 800 }],
])('shifts the layout by less than 0.05 while / and /ip-2 load (%s)', async (_name, viewport) => {
  const context = await browser.newContext({ viewport, extraHTTPHeaders: { 'x-forwarded-for': '8.8.8.8' } });
  await context.addInitScript(() => {
    const w = window as unknown as { __cls: number };
    w.__cls = 0;
    new PerformanceObserver((list) => {
      for (const entry of list.getEntries() as Array<PerformanceEntry & { value: number; hadRecentInput: boolean }>) {
        if (!entry.hadRecentInput) w.__cls += entry.value;
      }
    }).observe({ type: 'layout-shift', buffered: true });
  });
  const page = await context.newPage();
  for (const path of ['/', '/ip-2']) {
    // What moves after load: the islands hydrating and, on /, the
    // WebRTC check's verdict after its quiet lookup, the page's last request.
    const quiet = path === '/' && page.waitForResponse((r) => r.url().endsWith('/api/lookup') && r.request().headers()['x-lookup-update'] === '1', { timeout: 15_000 });
    await page.goto(`${server.url}${path}`, { waitUntil: 'load' });
    await hydrated(page);
    if (quiet) {
      await quiet;
      await page.getByRole('status').filter({ hasText: /^(No leak|Leak|WebRTC gathered)/ }).waitFor();
    }
    await page.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve))));
    const cls = await page.evaluate(() => (window as unknown as { __cls: number }).__cls);
    console.log(`CLS ${path} ${viewport.width}px: ${cls.toFixed(4)}`);
    expect(cls, path).toBeLessThan(0.05);
  }
  await context.close();
});
