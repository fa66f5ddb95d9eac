/** axe over every URL in the sitemap, plus the 404 page: zero violations. */
import { afterAll, beforeAll, expect, it } from 'vitest';
import AxeBuilder from '@axe-core/playwright';
import type { Browser } from 'playwright-core';
import { launchBrowser, sitemapPaths, startServer, type RunningServer } from './harness.ts';

let server: RunningServer;
let browser: Browser;
beforeAll(async () => { [server, browser] = await Promise.all([startServer(), launchBrowser()]); });
afterAll(async () => { await browser?.close(); await server?.stop(); });

it('finds no accessibility violations on any sitemap page or the 404 page', async () => {
  const paths = [...await sitemapPaths(server.url), '/this-page-does-not-exist'];
  expect(paths).toContain('/');
  const context = await browser.newContext();
  const failures: string[] = [];
  for (const path of paths) {
    const page = await context.newPage();
    await page.goto(server.url + path, { waitUntil: 'load' });
    const { violations } = await new AxeBuilder({ page }).analyze();
    for (const v of violations) failures.push(`${path}: ${v.id} (${v.nodes.length}) ${v.help}`);
    await page.close();
  }
  await context.close();
  expect(failures).toEqual([]);
});
