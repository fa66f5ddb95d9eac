/**
 * The 'look up any IP' box on `/` and each address's page, /lookup/{ip}: rendered on the
 * server with the same record, cards and map, not indexed, 400 for what is not an
 * address and never 404 for one that is. In Chromium against the built server.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { LookupResponseSchema } from '../../src/lib/record.ts';
import { launchBrowser } from '../support/browser-harness.ts';
import { sharedServer, type SharedServer } from '../support/e2e-fixture.ts';

let server: SharedServer;
let browser: Browser;
beforeAll(async () => { server = sharedServer(); browser = await launchBrowser(); });
afterAll(async () => { await browser?.close(); });

const record = async (ip: string) => LookupResponseSchema.parse(await (await fetch(`${server.url}/api/lookup/${ip}`)).json()).data;

describe('/lookup/{ip}', () => {
  it('renders the address, its place, privacy flags and a noindex tag in the first HTML', async () => {
    const data = await record('1.1.1.1');
    const res = await fetch(`${server.url}/lookup/1.1.1.1`);
    expect(res.status).toBe(200);
    const html = await res.text();
    expect(html).toMatch(/data-testid="ip"[^>]*>1\.1\.1\.1</);
    expect(html).toContain('<title>1.1.1.1: IP location, network and privacy flags</title>');
    expect(html).toContain('<meta name="robots" content="noindex">');
    expect(html).toContain(data.asn);
    expect(html).toContain('data-testid="privacy-flags"');
    // Another address's page shows no device card: the device is the visitor's, not the address's.
    expect(html).not.toContain('<h3>Device Info</h3>');
  });

  it.each(['8.8.8.8', '2001:4860:4860::8888', '2001:4860:4860:0:0:0:0:8888', '::ffff:8.8.8.8', '10.0.0.1', '::1', '255.255.255.255'])(
    'answers 200, never 404, for the valid address %s', async (ip) => {
      const res = await fetch(`${server.url}/lookup/${ip}`);
      expect(res.status).toBe(200);
      expect(await res.text()).toMatch(/data-testid="ip"/);
    });

  it.each([
    ['not-an-ip', 'not-an-ip'], ['999.1.1.1', '999.1.1.1'], ['1.2.3', '1.2.3'], ['8.8.8.8%20x', '8.8.8.8 x'],
    ['%3Cimg%20src%3Dx%20onerror%3Dalert(1)%3E', '&lt;img src=x onerror=alert(1)&gt;'],
  ])('answers 400 with the box to try again for %s, the input escaped', async (bad, shown) => {
    const res = await fetch(`${server.url}/lookup/${bad}`);
    expect(res.status).toBe(400);
    const html = await res.text();
    expect(html).toContain(`&quot;${shown}&quot; is not an IP address</h1>`);
    // Echoed as text only (inside a quoted value="..." it is inert): never as markup.
    expect(html.replace(/ value="[^"]*"/g, '')).not.toContain('<img');
    expect(html).toContain('<meta name="robots" content="noindex">');
  });

  it('shows the same cards and the map in a browser', async () => {
    const context = await browser.newContext();
    const page = await context.newPage();
    await page.goto(`${server.url}/lookup/8.8.8.8`);
    await expect(page.getByTestId('ip').textContent()).resolves.toBe('8.8.8.8');
    await expect(page.getByRole('heading', { name: 'Network Details' }).isVisible()).resolves.toBe(true);
    await expect(page.getByTestId('vpn-verdict').isVisible()).resolves.toBe(true);
    await page.getByTestId('map').scrollIntoViewIfNeeded();
    await page.locator('.leaflet-marker-icon').waitFor();
    await context.close();
  });
});

describe("the 'look up any IP' box on /", () => {
  it.each([true, false])('leads to the address page (JavaScript %s)', async (javaScriptEnabled) => {
    const context = await browser.newContext({ javaScriptEnabled, extraHTTPHeaders: { 'x-forwarded-for': '8.8.8.8' } });
    const page = await context.newPage();
    await page.goto(`${server.url}/`);
    await page.getByLabel('IPv4 or IPv6 address').fill(' 2001:4860:4860::8888 ');
    await Promise.all([page.waitForURL('**/lookup/2001:4860:4860::8888'), page.getByRole('button', { name: 'Look up' }).click()]);
    await expect(page.getByTestId('ip').textContent()).resolves.toBe('2001:4860:4860::8888');
    await context.close();
  });

  it('redirects /lookup?ip= to the address page, and /lookup without one to the box', async () => {
    const to = await fetch(`${server.url}/lookup?ip=8.8.4.4`, { redirect: 'manual' });
    expect([to.status, to.headers.get('location')]).toEqual([303, '/lookup/8.8.4.4']);
    const none = await fetch(`${server.url}/lookup`, { redirect: 'manual' });
    expect([none.status, none.headers.get('location')]).toEqual([303, '/#lookup']);
  });
});
