/**
 * The dark theme (prefers-color-scheme: dark): axe, contrast included, over every page type of
 * the sitemap (builtPageTypes in browser-harness.ts), an address page and the home page's
 * panels, as the light theme is checked by a11y.test.ts and lookup-a11y.test.ts.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import AxeBuilder from '@axe-core/playwright';
import type { Browser, BrowserContext } from 'playwright-core';
import { builtPageTypes, hydrated, launchBrowser, NETWORK_PAGES } from '../support/browser-harness.ts';
import { sharedServer, type SharedServer } from '../support/e2e-fixture.ts';

let server: SharedServer;
let browser: Browser;
let dark: BrowserContext;
beforeAll(async () => {
  server = sharedServer();
  browser = await launchBrowser();
  dark = await browser.newContext({ colorScheme: 'dark', extraHTTPHeaders: { 'x-forwarded-for': '8.8.8.8' } });
});
afterAll(async () => { await dark?.close(); await browser?.close(); });

it('uses the dark palette when the system asks for it', async () => {
  const page = await dark.newPage();
  await page.goto(`${server.url}/`);
  const background = await page.evaluate(() => getComputedStyle(document.body).backgroundColor);
  expect(background).toBe('rgb(15, 17, 21)');
  await page.close();
});

it.each([...builtPageTypes(), ...NETWORK_PAGES, '/lookup/1.1.1.1', '/this-page-does-not-exist'])('finds no accessibility violations, contrast included, on %s in the dark theme', async (path) => {
  const page = await dark.newPage();
  try {
    await page.goto(server.url + path, { waitUntil: 'load' });
    if (path === '/') {
      // The accuracy badges opened, and the VPN panel shown.
      await hydrated(page);
      await page.getByText('How sure is this?').click();
      await page.getByRole('tab', { name: 'VPN' }).click();
    }
    const { violations } = await new AxeBuilder({ page }).analyze();
    expect(violations.map((v) => `${v.id} (${v.nodes.length}) ${v.help}: ${v.nodes[0]?.target.join(' ')}`)).toEqual([]);
  } finally {
    await page.close();
  }
});
