/** axe over every URL in the built sitemap, the network pages' cases and the 404 page: zero violations, one test per page. */
import { afterAll, beforeAll, expect, it } from 'vitest';
import AxeBuilder from '@axe-core/playwright';
import type { Browser, BrowserContext } from 'playwright-core';
import { builtSitemapPaths, launchBrowser, NETWORK_PAGES } from '../support/browser-harness.ts';
import { sharedServer, type SharedServer } from '../support/e2e-fixture.ts';

const PATHS = [...builtSitemapPaths(), ...NETWORK_PAGES, '/this-page-does-not-exist'];

let server: SharedServer;
let browser: Browser;
let context: BrowserContext;
beforeAll(async () => {
  server = sharedServer();
  browser = await launchBrowser();
  context = await browser.newContext();
});
afterAll(async () => { await context?.close(); await browser?.close(); });

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
