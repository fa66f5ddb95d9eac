/**
 * The scripts `/` loads, by the browser's count: every script Chromium fetches for the page's
 * first view on a phone's screen, plus the page's inline scripts, is at most 100 KB gzip, the
 * islands' texts chunk included; so is everything loaded once the page is read to its end
 * (the overview's cards hydrate when seen) and once every tab but the map has been opened
 * (their islands hydrate when shown). The map's Leaflet chunk loads only when the map tab opens. tests/js-budget.test.ts reads a budget off the build's import graph; this
 * counts what a browser asks for.
 */
import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { AS_VISITOR, hydrated, launchBrowser } from '../support/browser-harness.ts';
import { sharedServer, type SharedServer } from '../support/e2e-fixture.ts';

const BUDGET_BYTES = 100 * 1024;
const MAP_CHUNK = /leaflet-map/;
// Inline scripts the browser runs; data blocks (the page's record, structured data) are not JavaScript.
const INLINE_SCRIPT = /<script(?![^>]*\bsrc=)(?![^>]*\btype="application\/(?:ld\+)?json")[^>]*>([\s\S]*?)<\/script>/g;

let server: SharedServer;
let browser: Browser;
beforeAll(async () => { server = sharedServer(); browser = await launchBrowser(); });
afterAll(async () => { await browser?.close(); });

/** Gzip bytes (zlib's default level) of each script, read from the server as the browser got it. */
async function gzipBytes(urls: string[]): Promise<Array<[string, number]>> {
  return Promise.all(urls.map(async (url) => [new URL(url).pathname, gzipSync(await (await fetch(url)).text()).length] as [string, number]));
}

it('loads at most 100 KB of gzipped script on / at first view, read to its end and with every tab but the map opened, texts included, and Leaflet only with the map', async () => {
  const context = await browser.newContext({ extraHTTPHeaders: AS_VISITOR, viewport: { width: 412, height: 823 } });
  const page = await context.newPage();
  const scripts: string[] = [];
  page.on('request', (request) => { if (request.resourceType() === 'script') scripts.push(request.url()); });
  const html = await (await page.goto(`${server.url}/`))!.text();
  await hydrated(page);
  const firstView = [...scripts];

  // The page read to its end, a screen at a time as a reader scrolls (a jump to the end would
  // pass over the cards without their ever being seen): the overview's cards hydrate.
  await page.evaluate(async () => {
    for (let y = 0; y < document.body.scrollHeight; y += window.innerHeight / 2) {
      window.scrollTo(0, y);
      await new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve)));
    }
  });
  await hydrated(page);
  await expect.poll(() => scripts.some((u) => /DetailCards/.test(u)), { timeout: 10_000 }).toBe(true);
  const read = [...new Set(scripts)];

  // Then every other tab but the map, each island hydrating as its tab opens.
  for (const name of ['Verification', 'VPN', 'Analytics']) {
    await page.getByRole('tab', { name }).click();
    await expect.poll(() => page.getByRole('tab', { name }).getAttribute('aria-selected'), { timeout: 10_000 }).toBe('true');
    await hydrated(page);
  }
  const beforeMap = [...new Set(scripts)];

  const inline = gzipSync([...html.matchAll(INLINE_SCRIPT)].map((m) => m[1]!).join('\n')).length;
  const sizes = new Map(await gzipBytes(beforeMap));
  const kb = (urls: string[]) => (urls.reduce((sum, u) => sum + sizes.get(new URL(u).pathname)!, 0) + inline) / 1024;
  const views = { 'at first view': [...new Set(firstView)], 'read to its end': read, 'with every tab but the map opened': beforeMap };
  console.log(`/ loads, in KB gzip (${(inline / 1024).toFixed(1)} KB of each inline):\n`
    + Object.entries(views).map(([view, urls]) => `  ${view}: ${urls.length} scripts, ${kb(urls).toFixed(1)} KB`).join('\n') + '\n'
    + [...sizes].map(([u, n]) => `  ${u} ${(n / 1024).toFixed(1)} KB`).join('\n'));
  expect(read.some((u) => /island-texts/.test(u)), 'the texts chunk is counted').toBe(true);
  expect(beforeMap.filter((u) => MAP_CHUNK.test(u))).toEqual([]);
  for (const [view, urls] of Object.entries(views)) expect(kb(urls) * 1024, view).toBeLessThanOrEqual(BUDGET_BYTES);

  // The map tab brings Leaflet: the count above was taken before it, not without it.
  await page.getByRole('tab', { name: 'Map' }).click();
  await expect.poll(() => scripts.some((u) => MAP_CHUNK.test(u)), { timeout: 10_000 }).toBe(true);
  await context.close();
});
