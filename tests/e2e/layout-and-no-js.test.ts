/**
 * The finish a visitor notices, over the built site in Chromium: at 390 px no page of the
 * sitemap is wider than the screen (wide tables scroll in their own box; the navigation's
 * Menu button is checked in visitor-states.test.ts), the footer's
 * credits read with their spaces, the navigation marks the current page everywhere, and
 * the home page's buttons hold their places from the first HTML on, without JavaScript it says
 * why Refresh, Export and precise location are off, and /ip-2 without it shows the server's
 * answer.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, BrowserContext } from 'playwright-core';
import { hydrated, isNetworkPage, launchBrowser, NETWORK_PAGES, sitemapPaths } from '../support/browser-harness.ts';
import { sharedServer, type SharedServer } from '../support/e2e-fixture.ts';

let server: SharedServer;
let browser: Browser;
let phone: BrowserContext;
let paths: string[];
beforeAll(async () => {
  server = sharedServer();
  browser = await launchBrowser();
  // A long IPv6 visitor is the widest hero there is.
  phone = await browser.newContext({ viewport: { width: 390, height: 844 }, extraHTTPHeaders: { 'x-forwarded-for': '2001:4860:4860:0:0:0:0:8888' } });
  // The networks' sitemap by its cases: its 3,000 pages share one template.
  paths = [...(await sitemapPaths(server.url)).filter((p) => !isNetworkPage(p)), ...NETWORK_PAGES, '/lookup/2001:4860:4860::8888'];
});
afterAll(async () => { await phone?.close(); await browser?.close(); });

describe('at 390 px', () => {
  it('keeps every sitemap page within the screen width', async () => {
    expect(paths.length).toBeGreaterThan(20);
    const wide: string[] = [];
    const page = await phone.newPage();
    for (const path of paths) {
      await page.goto(server.url + path, { waitUntil: 'load' });
      const { scrollWidth, innerWidth } = await page.evaluate(() => ({ scrollWidth: document.documentElement.scrollWidth, innerWidth: window.innerWidth }));
      if (scrollWidth > innerWidth) wide.push(`${path}: ${scrollWidth} > ${innerWidth}`);
    }
    await page.close();
    expect(wide.join('\n')).toBe('');
  }, 300_000);

  it("holds the hero's buttons where hydration leaves them: the GPS button's row is in the first HTML", async () => {
    // Without JavaScript the page stays as the server sent it: what a phone shows before hydrating.
    const actions = async (javaScriptEnabled: boolean) => {
      const context = await browser.newContext({ viewport: { width: 390, height: 844 }, javaScriptEnabled, extraHTTPHeaders: { 'x-forwarded-for': '8.8.8.8' } });
      const page = await context.newPage();
      await page.goto(`${server.url}/`);
      if (javaScriptEnabled) await hydrated(page);
      const gps = page.getByRole('button', { name: 'Enable Precise GPS Location' });
      const shown = { height: (await page.locator('.hero-actions').boundingBox())!.height, gps: await gps.boundingBox(), enabled: await gps.isEnabled() };
      await context.close();
      return shown;
    };
    const [before, after] = [await actions(false), await actions(true)];
    expect(before.enabled).toBe(false);
    expect(after.enabled).toBe(true);
    expect(after.height).toBe(before.height);
    expect(after.gps).toEqual(before.gps);
  });

  it('breaks a long IPv6 address in the hero only between groups', async () => {
    const page = await phone.newPage();
    await page.goto(`${server.url}/`);
    const lines = await page.getByTestId('ip').evaluate((button) => {
      // Each text fragment's line boxes: a group split across lines would give one group two boxes.
      const range = document.createRange();
      const tops = new Map<string, Set<number>>();
      for (const node of [...button.childNodes].filter((n) => n.nodeType === Node.TEXT_NODE)) {
        range.selectNodeContents(node);
        const set = new Set([...range.getClientRects()].map((r) => Math.round(r.top)));
        tops.set(node.textContent ?? '', set);
      }
      return [...tops.values()].map((s) => s.size);
    });
    expect(lines.every((n) => n === 1)).toBe(true);
    await expect(page.getByTestId('ip').textContent()).resolves.toBe('2001:4860:4860::8888');
    await page.close();
  });

});

describe('on every page', () => {
  it('reads the footer credits and privacy sentence with their spaces', async () => {
    const page = await browser.newPage();
    await page.goto(`${server.url}/trust`);
    await expect(page.locator('.site-footer p').first().innerText()).resolves.toMatch(/is stored\. What we keep, and for how long\.$/);
    const credits = (await page.locator('.credits').innerText()).replace(/\s+/g, ' ');
    expect(credits).toContain('Data: IP Geolocation by DB-IP (CC BY 4.0, modified); GeoLite2 data created by MaxMind (GeoLite2 End User License Agreement);');
    expect(credits).toContain('(ODbL). Every source, its licence, and how we changed it.');
    await page.close();
  });

  it('marks the current page in the navigation, on every page it links', async () => {
    const page = await browser.newPage();
    await page.goto(`${server.url}/`);
    const hrefs = await page.locator('nav[aria-label="Main"] a').evaluateAll((links) => links.map((a) => a.getAttribute('href')!));
    for (const href of hrefs) {
      await page.goto(server.url + href);
      const current = await page.locator('nav[aria-label="Main"] a[aria-current="page"]').evaluateAll((links) => links.map((a) => a.getAttribute('href')));
      expect(current, href).toEqual([href]);
    }
    await page.goto(`${server.url}/blog/webrtc-leaks-explained`);
    await expect(page.locator('nav[aria-label="Main"] a[aria-current="true"]').getAttribute('href')).resolves.toBe('/blog');
    await page.close();
  });
});

describe('without JavaScript', () => {
  // Chromium with scripts turned off through DevTools still parses <noscript> as text, so
  // this reads the HTML a browser without JavaScript renders.
  it('says on / why Refresh, Export and precise location are off, right after the disabled buttons', async () => {
    const html = await (await fetch(`${server.url}/`, { headers: { 'x-forwarded-for': '8.8.8.8' } })).text();
    const buttons = html.indexOf('disabled="">Enable Precise GPS Location</button>');
    const note = html.indexOf('<noscript><p class="noscript"');
    expect(html.indexOf('>Export Data</button>')).toBeGreaterThan(0);
    expect(buttons).toBeGreaterThan(html.indexOf('>Export Data</button>'));
    expect(note).toBeGreaterThan(buttons);
    expect(html.slice(note, html.indexOf('</noscript>', note))).toContain('Refresh, Export and precise location need JavaScript');
  });

  it("shows the server's answer on /ip-2, not skeletons that wait for a script", async () => {
    const context = await browser.newContext({ javaScriptEnabled: false, extraHTTPHeaders: { 'x-forwarded-for': '8.8.8.8' } });
    const page = await context.newPage();
    await page.goto(`${server.url}/ip-2`);
    const main = await page.locator('main').innerText();
    for (const shown of ['8.8.8.8', 'Mountain View, California, United States', 'Google LLC', 'AS15169']) expect(main).toContain(shown);
    await expect(page.locator('main .skeleton:visible').count()).resolves.toBe(0);
    // The verification card renders from the same record: with JavaScript it never asks for
    // a lookup of its own, even when it hydrates before the islands that seed the store.
    await expect(page.getByTestId('verification-place').textContent()).resolves.toBe('Mountain View, California, United States');
    await context.close();
  });
});
