/** axe over every URL in the built sitemap, plus the 404 page: zero violations, one test per page. */
import { readdirSync, readFileSync } from 'node:fs';
import { afterAll, beforeAll, expect, it } from 'vitest';
import AxeBuilder from '@axe-core/playwright';
import type { Browser, BrowserContext } from 'playwright-core';
import { launchBrowser, startServer, type RunningServer } from './harness.ts';

/** Paths the build's sitemap lists (read at collection time so each page is its own test). */
function builtSitemapPaths(): string[] {
  const dir = 'dist/client';
  return readdirSync(dir).filter((f) => /^sitemap-\d+\.xml$/.test(f))
    .flatMap((f) => [...readFileSync(`${dir}/${f}`, 'utf8').matchAll(/<loc>([^<]+)<\/loc>/g)].map(([, loc]) => new URL(loc!).pathname));
}

const PATHS = [...builtSitemapPaths(), '/this-page-does-not-exist'];

let server: RunningServer;
let browser: Browser;
let context: BrowserContext;
beforeAll(async () => {
  [server, browser] = await Promise.all([startServer(), launchBrowser()]);
  context = await browser.newContext();
});
afterAll(async () => { await context?.close(); await browser?.close(); await server?.stop(); });

it('covers the home page and every other sitemap page', () => {
  expect(PATHS).toContain('/');
  expect(PATHS.length).toBeGreaterThan(20);
});

it.each(PATHS)('finds no accessibility violations on %s', async (path) => {
  const page = await context.newPage();
  try {
    await page.goto(server.url + path, { waitUntil: 'load' });
    const { violations } = await new AxeBuilder({ page }).analyze();
    expect(violations.map((v) => `${v.id} (${v.nodes.length}) ${v.help}: ${v.nodes[0]?.target.join(' ')}`)).toEqual([]);
  } finally {
    await page.close();
  }
});
