/** The server from the build, seen from outside: pages, 404, headers, client address, shutdown. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { launchBrowser, startServer, type RunningServer } from '../support/browser-harness.ts';

let server: RunningServer;
let browser: Browser;

beforeAll(async () => {
  [server, browser] = await Promise.all([startServer(), launchBrowser()]);
});
afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

describe('the built server', () => {
  it('serves the home page with the visitor address in the HTML', async () => {
    const page = await browser.newPage();
    const response = await page.goto(server.url + '/');
    expect(response?.status()).toBe(200);
    await expect(page.getByRole('heading', { level: 1 }).textContent()).resolves.toMatch(/IP/);
    expect(await response!.text()).toContain('127.0.0.1');
    await page.close();
  });

  it('answers an unknown path with the 404 page and status 404', async () => {
    const page = await browser.newPage();
    const response = await page.goto(server.url + '/no/such/page');
    expect(response?.status()).toBe(404);
    await expect(page.getByRole('heading', { name: /Oops! Page not found/ }).isVisible()).resolves.toBe(true);
    await expect(page.getByText('404', { exact: true }).isVisible()).resolves.toBe(true);
    await page.getByRole('link', { name: 'Return to Home' }).click();
    await page.waitForURL(server.url + '/');
    await page.close();
  });

  it('sets security headers on pages, static files and errors', async () => {
    for (const path of ['/', '/favicon.svg', '/robots.txt', '/missing']) {
      const res = await fetch(server.url + path);
      expect(res.headers.get('x-content-type-options'), path).toBe('nosniff');
      expect(res.headers.get('referrer-policy'), path).toBe('strict-origin-when-cross-origin');
      expect(res.headers.get('permissions-policy'), path).toContain('geolocation=(self)');
      const csp = res.headers.get('content-security-policy') ?? '';
      expect(csp, path).toContain("frame-ancestors 'none'");
      expect(csp, path).not.toContain("'unsafe-inline'");
      expect(res.headers.get('strict-transport-security'), path).toBeNull();
    }
  });

  it('lets no inline script run that the policy has not hashed', async () => {
    const page = await browser.newPage();
    const violations: string[] = [];
    page.on('console', (m) => { if (/Content Security Policy/.test(m.text())) violations.push(m.text()); });
    await page.goto(server.url + '/');
    const ran = await page.evaluate(() => {
      const s = document.createElement('script');
      s.textContent = 'window.__injected = true';
      document.body.append(s);
      return (window as unknown as { __injected?: boolean }).__injected === true;
    });
    expect(ran).toBe(false);
    expect(violations.length).toBeGreaterThan(0);
    await page.close();
  });

  it('ignores a spoofed X-Forwarded-For from an untrusted peer', async () => {
    const res = await fetch(server.url + '/', { headers: { 'x-forwarded-for': '203.0.113.9', 'x-real-ip': '203.0.113.9' } });
    const html = await res.text();
    expect(html).toContain('127.0.0.1');
    expect(html).not.toContain('203.0.113.9');
  });

  it('serves hashed assets immutable, those of 512 bytes or more brotli-compressed, pages revalidated', async () => {
    const html = await (await fetch(server.url + '/404')).text();
    const assets = [...new Set([...html.matchAll(/(?:href|src)="(\/_astro\/[^"]+\.(?:css|js))"/g)].map((m) => m[1]!))];
    let compressed = 0;
    for (const asset of assets) {
      const res = await fetch(server.url + asset, { headers: { 'accept-encoding': 'br' } });
      const plain = await fetch(server.url + asset, { headers: { 'accept-encoding': 'identity' } });
      expect(res.headers.get('cache-control'), asset).toBe('public, max-age=31536000, immutable');
      expect(plain.headers.get('content-encoding'), asset).toBeNull();
      const original = await plain.text();
      // scripts/postbuild.mjs compresses text files of 512 bytes or more.
      expect(res.headers.get('content-encoding'), asset).toBe(Buffer.byteLength(original) >= 512 ? 'br' : null);
      if (res.headers.get('content-encoding') === 'br') {
        compressed++;
        expect(Number(res.headers.get('content-length')), asset).toBeLessThan(Buffer.byteLength(original));
        expect(res.headers.get('vary'), asset).toMatch(/accept-encoding/i);
      }
      // fetch decodes a br body: it must be the file itself.
      expect(await res.text(), asset).toBe(original);
    }
    expect(compressed).toBeGreaterThan(0);
    const page = await fetch(server.url + '/robots.txt');
    expect(page.headers.get('cache-control')).toContain('must-revalidate');
    const etag = page.headers.get('etag')!;
    expect((await fetch(server.url + '/robots.txt', { headers: { 'if-none-match': etag } })).status).toBe(304);
  });

  it('answers the health check: ok, then one `name: state` line per part', async () => {
    const res = await fetch(server.url + '/healthz');
    expect(res.status).toBe(200);
    const lines = (await res.text()).trimEnd().split('\n');
    expect(lines[0]).toBe('ok');
    expect(lines).toContain('rate-limit: memory, this process only (0 keys this minute, at most 1000000)');
    expect(lines).toEqual(expect.arrayContaining(['data dbip-city: ok', 'data geolite2-city: ok', 'data asn: ok']));
    // A part's name may be a package's (`package @ip-location-db/asn: ...`).
    for (const line of lines.slice(1)) expect(line).toMatch(/^[\w @/.-]+: \S/);
  });

  it('points robots.txt at the sitemap', async () => {
    const text = await (await fetch(server.url + '/robots.txt')).text();
    expect(text).toMatch(/^Sitemap: .*\/sitemap-index\.xml$/m);
  });
});

describe('behind a trusted proxy', () => {
  it('believes X-Forwarded-For from a trusted peer and sends HSTS for https', async () => {
    const proxied = await startServer({ TRUST_PROXY: 'loopback' });
    try {
      const res = await fetch(proxied.url + '/', { headers: { 'x-forwarded-for': '198.51.100.7, 127.0.0.1', 'x-forwarded-proto': 'https' } });
      expect(await res.text()).toContain('198.51.100.7');
      expect(res.headers.get('strict-transport-security')).toContain('max-age=');
    } finally {
      await proxied.stop();
    }
  });
});

describe('process lifecycle', () => {
  it('finishes an in-flight request on SIGTERM and exits 0', async () => {
    const s = await startServer();
    const inflight = fetch(s.url + '/');
    await new Promise((r) => setTimeout(r, 5));
    const code = s.stop();
    expect((await inflight).status).toBe(200);
    expect(await code).toBe(0);
  });

  it('refuses a bad configuration with one clear line', async () => {
    await expect(startServer({ PORT: 'eighty' })).rejects.toThrow(/configuration error: PORT="eighty" must be a whole number/);
    await expect(startServer({ TRUST_PROXY: '10.0.0.0/99' })).rejects.toThrow(/TRUST_PROXY entry "10.0.0.0\/99"/);
  });
});
