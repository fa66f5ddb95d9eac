/**
 * The host name on the network card of `/` and `/lookup/{ip}`: in the first HTML when the
 * server had it cached, else filled in after load (the first byte never waits for DNS),
 * against a local DNS server (tests/support/dns-server.ts). In Chromium against the built server.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { hydrated, launchBrowser, startServer, type RunningServer } from '../support/browser-harness.ts';
import { NAMED, namedRecords, startDnsServer, type TestDnsServer } from '../support/dns-server.ts';

const { confirmed: CONFIRMED, unconfirmed: UNCONFIRMED, slow: SLOW, hostile: HOSTILE } = NAMED;

let dns: TestDnsServer;
let server: RunningServer;
let browser: Browser;
beforeAll(async () => {
  dns = await startDnsServer(namedRecords(5000, '<img src=x onerror=alert(1)>.test'));
  [server, browser] = await Promise.all([
    startServer({ TRUST_PROXY: 'loopback', REVERSE_DNS: 'on', DNS_RESOLVERS: dns.address, RATE_LIMIT: '0', PAGE_RATE_LIMIT: '0' }),
    launchBrowser(),
  ]);
});
afterAll(async () => { await browser?.close(); await server?.stop(); await dns?.close(); });

/** The network card of a page seen from `ip` once its islands have hydrated, and the page's first HTML. */
async function open(path: string, ip: string) {
  const context = await browser.newContext({ extraHTTPHeaders: { 'x-forwarded-for': ip } });
  const page = await context.newPage();
  const response = await page.goto(`${server.url}${path}`);
  const html = await response!.text();
  await hydrated(page);
  // The card hydrates when it comes into view (client:visible): a visitor sees it there.
  const card = page.getByRole('region', { name: 'Network Details' });
  await card.scrollIntoViewIfNeeded();
  await hydrated(page);
  return { page, html, card, close: () => context.close() };
}

/** How long the server takes to its first byte of a page asked from `ip`. */
async function firstByteMs(path: string, ip: string): Promise<number> {
  const started = performance.now();
  const res = await fetch(`${server.url}${path}`, { headers: { 'x-forwarded-for': ip, 'user-agent': 'Mozilla/5.0 Chrome/140.0', accept: 'text/html' } });
  const ms = performance.now() - started;
  await res.arrayBuffer();
  return ms;
}

describe('the hostname on the network card', () => {
  it('fills in a name the server did not have cached within a second after load, then has it in the first HTML', async () => {
    const first = await open('/', CONFIRMED);
    expect(first.html).not.toContain('host.example.test');
    await first.card.getByText('host.example.test').waitFor({ timeout: 1000 });
    await first.close();
    const again = await open('/', CONFIRMED);
    expect(again.html).toContain('host.example.test');
    await again.card.getByText('host.example.test').waitFor({ timeout: 1000 });
    await again.close();
  });

  it('says when a name does not point back to the address', async () => {
    const { card, close } = await open(`/lookup/${UNCONFIRMED}`, '127.0.0.1');
    await card.getByText('liar.example.test').waitFor({ timeout: 1000 });
    await card.getByText(/not confirmed/).waitFor();
    await close();
  });

  it('sends the page at once while the resolver is slow, and shows no name once it gives up', async () => {
    await firstByteMs('/', '84.17.0.200'); // warm
    // The resolver waits 500 ms before it gives up: a page that waited would take that long.
    expect(await firstByteMs('/', SLOW)).toBeLessThan(450);
    const { card, close } = await open('/', SLOW);
    await card.getByText('None', { exact: true }).waitFor({ timeout: 3000 });
    await close();
  });

  it('shows no name for a PTR answer that is not a host name, and runs none of it', async () => {
    const { page, card, close } = await open(`/lookup/${HOSTILE}`, '127.0.0.1');
    let alerted = false;
    page.on('dialog', (dialog) => { alerted = true; void dialog.dismiss(); });
    await card.getByText('None', { exact: true }).waitFor({ timeout: 1000 });
    expect(await page.locator('img[src="x"]').count()).toBe(0);
    expect(alerted).toBe(false);
    await close();
  });
});
