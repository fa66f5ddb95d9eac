/**
 * axe over every page type of the built sitemap (builtPageTypes in browser-harness.ts), the
 * network pages' cases and the 404 page: zero violations, one test per page.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import AxeBuilder from '@axe-core/playwright';
import type { Browser, BrowserContext } from 'playwright-core';
import { builtPageTypes, builtSitemapPaths, launchBrowser, NETWORK_PAGES } from '../support/browser-harness.ts';
import { sharedServer, type SharedServer } from '../support/e2e-fixture.ts';

const PATHS = [...builtPageTypes(), ...NETWORK_PAGES, '/this-page-does-not-exist'];

let server: SharedServer;
let browser: Browser;
let context: BrowserContext;
beforeAll(async () => {
  server = sharedServer();
  browser = await launchBrowser();
  context = await browser.newContext();
});
afterAll(async () => { await context?.close(); await browser?.close(); });

it('covers the home page and every page type of the sitemap', () => {
  expect(PATHS).toContain('/');
  // Each folder of the sitemap (a template that renders a collection) by two of its pages.
  const folders = (paths: string[]) => [...new Set(paths.filter((p) => p.lastIndexOf('/') > 0).map((p) => p.slice(0, p.lastIndexOf('/'))))];
  const sitemap = builtSitemapPaths();
  expect(folders(PATHS)).toEqual(folders(sitemap));
  for (const folder of folders(sitemap)) expect(PATHS.filter((p) => p.startsWith(folder + '/'))).toHaveLength(2);
  // And every page that is alone under its template.
  expect(sitemap.filter((p) => p.lastIndexOf('/') === 0).every((p) => PATHS.includes(p))).toBe(true);
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
