/**
 * The verdict as a visitor reads it, in Chromium against the built server with a test
 * Tor exit list: a Tor exit shows 'Tor exit' with its reason (hero badge and VPN card),
 * a list that is not loaded reads 'Not checked' with why, a timezone mismatch says what
 * was compared, and axe finds nothing in the card.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import AxeBuilder from '@axe-core/playwright';
import type { Browser } from 'playwright-core';
import { IpInfoSchema } from '../../src/lib/record.ts';
import { hydrated, launchBrowser, startServer, type RunningServer } from '../support/browser-harness.ts';

const TOR_EXIT = '185.220.101.1';
let server: RunningServer;
let browser: Browser;

beforeAll(async () => {
  [server, browser] = await Promise.all([
    // Only the Tor list is loaded: the other checks must say they did not run.
    startServer({ TRUST_PROXY: 'loopback', DATA_DIR: mkdtempSync(path.join(tmpdir(), 'verdict-')), TOR_EXIT_LIST: 'tests/fixtures/lists/tor-exits.txt' }),
    launchBrowser(),
  ]);
});
afterAll(async () => { await browser?.close(); await server?.stop(); });

async function visit(ip: string, timezoneId?: string) {
  const context = await browser.newContext({ extraHTTPHeaders: { 'x-forwarded-for': ip }, timezoneId });
  const page = await context.newPage();
  await page.goto(`${server.url}/`);
  await hydrated(page);
  return { context, page };
}

describe('the verdict', () => {
  it("shows a listed Tor exit as 'Tor exit', with the list's reason, in the hero and the VPN card", async () => {
    const { context, page } = await visit(TOR_EXIT);
    await expect(page.locator('[data-badge="vpn"]').textContent()).resolves.toBe('Tor exit');
    const card = page.getByTestId('vpn-verdict');
    const indicator = card.locator('.indicators li', { hasText: 'Tor exit' });
    await expect(indicator.textContent()).resolves.toMatch(/^Tor exit: Listed in the Tor Project's list of exit relays \(updated \d{4}-\d\d-\d\d\)/);
    const tor = card.locator('[data-flag="tor"]');
    await expect(tor.locator('.badge').textContent()).resolves.toBe('Yes');
    await expect(card.locator('[data-flag="service"] dd').textContent()).resolves.toBe('Tor');
    // Lists that are not loaded say so instead of 'No'.
    const proxy = card.locator('[data-flag="proxy"]');
    await expect(proxy.locator('.badge').textContent()).resolves.toBe('Not checked');
    await expect(proxy.textContent()).resolves.toContain('no list of open proxies is loaded');
    const { violations } = await new AxeBuilder({ page }).include('[data-testid="vpn-verdict"]').analyze();
    expect(violations.map((v) => v.id)).toEqual([]);
    await context.close();
  });

  it('answers /json with the flags and their reasons', async () => {
    const record = IpInfoSchema.parse(await (await fetch(`${server.url}/json?ip=${TOR_EXIT}`)).json());
    expect(record.privacy).toMatchObject({ tor: true, relay: null, vpn: null, proxy: null, service: 'Tor' });
    expect(record.privacy.reasons.relay).toBe("iCloud Private Relay check not available: Apple's list of egress ranges is not loaded.");
  });

  it('says what was compared when the browser clock disagrees with the address', async () => {
    const record = IpInfoSchema.parse(await (await fetch(`${server.url}/json?ip=8.8.8.8`)).json());
    const browserZone = record.timezone === 'Asia/Tokyo' ? 'Europe/Berlin' : 'Asia/Tokyo';
    const { context, page } = await visit('8.8.8.8', browserZone);
    // The page posts the browser's timezone after its WebRTC check; the card then explains the mismatch.
    const mismatch = page.getByTestId('vpn-verdict').locator('.indicators li', { hasText: 'Timezone mismatch' });
    // The card hydrates when it comes into view (client:visible): a visitor scrolls to it.
    await page.getByTestId('vpn-verdict').scrollIntoViewIfNeeded();
    await mismatch.waitFor();
    await expect(mismatch.textContent()).resolves.toBe(`Timezone mismatch: Your browser says ${browserZone}, this address is in ${record.timezone}.`);
    await context.close();
  });
});
