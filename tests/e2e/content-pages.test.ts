/**
 * Content pages in a real browser: unknown slugs answer 404 with the 404 page (no redirect),
 * the blog's own not-found page, and the service worker's offline behaviour.
 */
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import AxeBuilder from '@axe-core/playwright';
import type { Browser } from 'playwright-core';
import { launchBrowser } from '../support/browser-harness.ts';
import { sharedServer, type SharedServer } from '../support/e2e-fixture.ts';

let server: SharedServer;
let browser: Browser;
beforeAll(async () => { server = sharedServer(); browser = await launchBrowser(); });
afterAll(async () => { await browser?.close(); });

/** Whether the server maps unknown /blog/* paths to the blog's not-found page (a rule the lead owns). */

describe('unknown content slugs', () => {
  it.each(['/ip-lookup/atlantis', '/isp/no-such-isp', '/tool/no-such-tool', '/guide/no-such-guide'])(
    'answers %s with status 404 and the 404 page, without redirecting', async (path) => {
      const page = await browser.newPage();
      const response = await page.goto(server.url + path);
      expect(response?.status()).toBe(404);
      expect(new URL(page.url()).pathname).toBe(path);
      await expect(page.getByRole('heading', { name: /Page not found/ }).isVisible()).resolves.toBe(true);
      await page.close();
    });

  it('answers an unknown blog slug with status 404', async () => {
    const page = await browser.newPage();
    const response = await page.goto(server.url + '/blog/no-such-post');
    expect(response?.status()).toBe(404);
    expect(new URL(page.url()).pathname).toBe('/blog/no-such-post');
    await page.close();
  });

  it('shows "Blog Post Not Found" for an unknown blog slug', async () => {
    const page = await browser.newPage();
    await page.goto(server.url + '/blog/no-such-post');
    await expect(page.getByRole('heading', { name: 'Blog Post Not Found' }).isVisible()).resolves.toBe(true);
    await page.close();
  });

  it('has a blog not-found page that leads back to the blog, is accessible and is not indexed', async () => {
    const context = await browser.newContext();
    const page = await context.newPage();
    await page.goto(server.url + '/blog/404');
    await expect(page.getByRole('heading', { level: 1 }).textContent()).resolves.toBe('Blog Post Not Found');
    await expect(page.locator('meta[name="robots"]').getAttribute('content')).resolves.toBe('noindex');
    expect((await new AxeBuilder({ page }).analyze()).violations.map((v) => v.id)).toEqual([]);
    await page.getByRole('link', { name: 'Back to Blog' }).click();
    await page.waitForURL(server.url + '/blog');
    await expect(page.getByRole('heading', { level: 1 }).isVisible()).resolves.toBe(true);
    await context.close();
  });
});

describe('the service worker', () => {
  it('is versioned by the build', async () => {
    const res = await fetch(server.url + '/sw.js');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/javascript/);
    expect(await res.text()).toMatch(/const CACHE = 'whatismyip-[0-9a-f]{12}';/);
  });

  it('opens visited static pages offline, never caches / or the API, and drops old caches', async () => {
    // The worker's fetches obey the CSP of /sw.js itself; the server must allow connect-src 'self' there.
    const csp = (await fetch(server.url + '/sw.js')).headers.get('content-security-policy') ?? '';
    expect(csp).toMatch(/connect-src 'self'/);
    const context = await browser.newContext();
    const page = await context.newPage();
    await page.goto(server.url + '/tools');
    // A cache left by an earlier deploy, and one that is not ours.
    await page.evaluate(async () => { await caches.open('whatismyip-olddeploy'); await caches.open('someone-else'); });
    await page.evaluate(async () => { await navigator.serviceWorker.register('/sw.js'); await navigator.serviceWorker.ready; });
    await page.waitForFunction(() => navigator.serviceWorker.controller !== null);
    await page.goto(server.url + '/trust');
    await page.goto(server.url + '/cities');
    await page.goto(server.url + '/');
    await page.evaluate(() => fetch('/api/lookup/8.8.8.8').catch(() => null));

    const cached = await page.evaluate(async () => {
      const names = await caches.keys();
      const ours = names.filter((n) => n.startsWith('whatismyip-'));
      const urls = ours.length === 1 ? (await (await caches.open(ours[0]!)).keys()).map((r) => new URL(r.url).pathname) : [];
      return { names, urls };
    });
    expect(cached.names.filter((n) => n.startsWith('whatismyip-'))).toHaveLength(1);
    expect(cached.names).not.toContain('whatismyip-olddeploy');
    expect(cached.names).toContain('someone-else');
    expect(cached.urls).toEqual(expect.arrayContaining(['/trust', '/cities']));
    expect(cached.urls.some((u) => u.startsWith('/_astro/'))).toBe(true);
    expect(cached.urls).not.toContain('/');
    expect(cached.urls.filter((u) => u.startsWith('/api/'))).toEqual([]);

    await context.setOffline(true);
    for (const path of ['/trust', '/cities']) {
      await page.goto(server.url + path);
      await expect(page.getByRole('heading', { level: 1 }).isVisible(), path).resolves.toBe(true);
      await expect(page.evaluate(() => [...document.styleSheets].every((s) => s.cssRules.length > 0)), `${path} styled`).resolves.toBe(true);
    }
    await expect(page.goto(server.url + '/')).rejects.toThrow();
    await context.close();
  });
});

describe('dated facts', () => {
  it.each([
    ['/ip-lookup/philadelphia', 'cities/philadelphia.json'],
    ['/isp/cox', 'isps/cox.json'],
    ['/tool/proxy-detection', 'tools/proxy-detection.json'],
  ])('%s shows when its facts were reviewed, from %s', async (path, file) => {
    const { reviewed } = JSON.parse(readFileSync(`content/${file}`, 'utf8')) as { reviewed: string };
    const page = await browser.newPage();
    await page.goto(server.url + path);
    const date = page.getByTestId('reviewed');
    await expect(date.getAttribute('datetime')).resolves.toBe(reviewed);
    await expect(page.getByText(/^Facts on this page reviewed on/).isVisible()).resolves.toBe(true);
    await page.close();
  });

  it('lists the dated sources of an ISP\'s company facts as links', async () => {
    const { sources } = JSON.parse(readFileSync('content/isps/cox.json', 'utf8')) as { sources: Array<{ title: string; url: string }> };
    const page = await browser.newPage();
    await page.goto(server.url + '/isp/cox');
    const list = page.getByRole('region', { name: 'Sources' });
    for (const s of sources) await expect(list.getByRole('link', { name: s.title }).getAttribute('href')).resolves.toBe(s.url);
    await page.close();
  });
});
