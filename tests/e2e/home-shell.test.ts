/**
 * `/` filled from its shell with hostile text in the visitor's record, in a real Chromium
 * under the page's own CSP: the text shows as text (in the hero, the cards and after
 * hydration), no script of it runs, and every island hydrates from the record it was
 * given without a mismatch. The record is the server's own for 8.8.8.8 with fields
 * replaced; the page comes from the server's page code (src/server/pages.ts) and is
 * served in place of `/` by the browser's request routing.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { clientConfigFromEnv } from '../../src/lib/client-config.ts';
import { LookupResponseSchema, type LookupResponse } from '../../src/lib/record.ts';
import type { AppRequest } from '../../src/server/http.ts';
import { loadPages, type PageSet } from '../../src/server/pages.ts';
import { launchBrowser, OFFLINE_CLIENT_ENV, startServer, type RunningServer } from './harness.ts';

let server: RunningServer;
let browser: Browser;
let pages: PageSet;
let base: LookupResponse;
let record: LookupResponse;

beforeAll(async () => {
  [server, browser] = await Promise.all([startServer({ TRUST_PROXY: 'loopback' }), launchBrowser()]);
  pages = (await loadPages('dist', { '/': { values: () => ({ lookup: record }) } }, { clientConfig: clientConfigFromEnv(OFFLINE_CLIENT_ENV) }))!;
  const res = await fetch(`${server.url}/api/lookup/8.8.8.8`);
  base = LookupResponseSchema.parse(await res.json());
});
afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

/** The page for a record, with the headers the server sends it with. */
function pageFor(lookup: LookupResponse) {
  record = lookup;
  const req = {
    method: 'GET', path: '/', query: new URLSearchParams(), clientIp: lookup.data.ip, clientAddress: undefined,
    headers: { get: () => null }, body: async () => Buffer.alloc(0),
  } satisfies AppRequest;
  const answer = pages.answer(req);
  const headers: Record<string, string> = {};
  for (let i = 0; i < answer.headers.length; i += 2) headers[answer.headers[i]!] = answer.headers[i + 1]!;
  return { headers, body: answer.body! };
}

const HOSTILE = [
  '</script><script>window.__xss=1</script>',
  '<img src=x onerror="window.__xss=1">',
  `"'><svg onload=window.__xss=1>`,
  '&amp; &lt;b&gt; & <',
  '--><script>window.__xss=1</script><!--',
  'Line\u2028separators\u2029here',
  '\uE000lookup.data.ip\uE001',
];

describe('hostile text in the record', () => {
  it.each(HOSTILE)('%j shows as text and runs nothing, before and after hydration', async (value) => {
    const lookup: LookupResponse = {
      ...base,
      data: { ...base.data, city: value, isp: value, vpn: { ...base.data.vpn, indicators: [value] } },
      device: base.device && { ...base.device, userAgent: value },
    };
    const { headers, body } = pageFor(lookup);
    const context = await browser.newContext({ timezoneId: lookup.data.timezone.includes('/') ? lookup.data.timezone : undefined });
    const page = await context.newPage();
    const problems: string[] = [];
    page.on('dialog', (d) => { problems.push(`dialog: ${d.message()}`); void d.dismiss(); });
    page.on('console', (m) => { if (m.type() === 'error' && !/Failed to load resource/.test(m.text())) problems.push(m.text()); });
    page.on('pageerror', (e) => problems.push(e.message));
    await page.route(`${server.url}/`, (route) => route.fulfill({ status: 200, headers, body }));
    // Later lookups (refresh, the WebRTC check) get the same record back.
    await page.route('**/api/lookup', (route) => route.fulfill({ status: 200, json: lookup }));
    await page.goto(`${server.url}/`);
    // Before any script: the server's HTML.
    await expect(page.getByTestId('place').textContent()).resolves.toContain(value);
    await page.waitForFunction(() => document.querySelectorAll('astro-island[ssr]').length === 0);
    // After hydration: React's own rendering of the same record.
    await expect(page.getByTestId('place').textContent()).resolves.toContain(value);
    await expect(page.locator('.detail-card dd').filter({ hasText: value }).count()).resolves.toBeGreaterThan(0);
    await expect(page.getByTestId('vpn-verdict').getByText(value, { exact: true }).count()).resolves.toBe(1);
    await expect(page.getByTestId('ip').textContent()).resolves.toBe(lookup.data.ip);
    expect(await page.evaluate(() => (window as { __xss?: number }).__xss)).toBeUndefined();
    expect(await page.locator('img[src="x"], svg[onload]').count()).toBe(0);
    expect(problems).toEqual([]);
    await context.close();
  });
});
