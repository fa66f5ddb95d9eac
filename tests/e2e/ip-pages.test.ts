/**
 * /ip-2, rendered per request with the visitor's record in its first HTML, and /ip-4, a
 * prerendered page that loads the record in the browser (its loading and error states).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { LookupResponseSchema, type LookupResponse } from '../../src/lib/record.ts';
import { panelKind } from '../../src/lib/vpn-panel.ts';
import { hydrated, launchBrowser } from '../support/browser-harness.ts';
import { sharedServer, type SharedServer } from '../support/e2e-fixture.ts';

const AS_VISITOR = { 'x-forwarded-for': '8.8.8.8' };
let server: SharedServer;
let browser: Browser;
let expected: LookupResponse;

beforeAll(async () => {
  server = sharedServer();
  browser = await launchBrowser();
  expected = LookupResponseSchema.parse(await (await fetch(`${server.url}/api/lookup`, { headers: AS_VISITOR })).json());
});
afterAll(async () => { await browser?.close(); });

describe("/ip-2, What's My IP Address?", () => {
  it('answers without JavaScript: the record is in the first HTML, not skeletons', async () => {
    const context = await browser.newContext({ extraHTTPHeaders: AS_VISITOR, javaScriptEnabled: false });
    const page = await context.newPage();
    await page.goto(`${server.url}/ip-2`);
    await expect(page.getByTestId('ip').textContent()).resolves.toBe('8.8.8.8');
    await expect(page.getByText(expected.data.isp, { exact: true }).isVisible()).resolves.toBe(true);
    await expect(page.locator('.skeleton').count()).resolves.toBe(0);
    await context.close();
  });

  it('shows IP, the accuracy sentence, cards and the map, with no lookup request', async () => {
    const context = await browser.newContext({ extraHTTPHeaders: AS_VISITOR, geolocation: { latitude: 52.52, longitude: 13.405 }, permissions: ['geolocation'] });
    const page = await context.newPage();
    const requests: string[] = [];
    page.on('request', (r) => { if (r.url().includes('/api/lookup')) requests.push(r.method()); });
    await page.goto(`${server.url}/ip-2`);
    await hydrated(page);
    expect(requests).toEqual([]);
    await expect(page.getByRole('heading', { level: 1 }).textContent()).resolves.toBe("What's My IP Address?");
    await page.getByTestId('ip').filter({ hasText: '8.8.8.8' }).waitFor();
    await expect(page.locator('[data-badge="vpn"]').isVisible()).resolves.toBe(true);
    // One sentence in view; the accuracy badges one click away.
    await expect(page.getByTestId('accuracy').textContent()).resolves.toMatch(/^Somewhere (within about|in) /);
    await expect(page.locator('[data-badge="tier"]').isVisible()).resolves.toBe(false);
    await page.getByText('How sure is this?').click();
    await expect(page.locator('[data-badge="tier"]').isVisible()).resolves.toBe(true);
    await expect(page.getByText(expected.data.isp, { exact: true }).isVisible()).resolves.toBe(true);
    await expect(page.getByRole('heading', { name: 'Device Info' }).isVisible()).resolves.toBe(true);
    // The map loads once it scrolls into view.
    await expect(page.locator('.leaflet-container').count()).resolves.toBe(0);
    await page.getByTestId('map').scrollIntoViewIfNeeded();
    await page.locator('.leaflet-marker-icon').waitFor();
    await page.getByRole('button', { name: 'Get Precise GPS Location' }).click();
    await page.locator('[data-badge="gps"]', { hasText: 'GPS Enhanced' }).waitFor();
    await context.close();
  });

  it("shows 'Connection Error' on /ip-4 when the lookup fails, and 'Try Again' loads it", async () => {
    const context = await browser.newContext({ extraHTTPHeaders: AS_VISITOR });
    const page = await context.newPage();
    await page.route('**/api/lookup', (route) => route.abort());
    await page.goto(`${server.url}/ip-4`);
    const dialog = page.getByRole('alertdialog', { name: 'Connection Error' });
    await dialog.waitFor();
    await page.unroute('**/api/lookup');
    await dialog.getByRole('button', { name: 'Try Again' }).click();
    await page.locator('[data-testid="vpn-panel"]:not([data-kind="general"])').waitFor();
    await context.close();
  });

  it("shows 'Loading your location...' on /ip-4 only while the lookup is in flight", async () => {
    const context = await browser.newContext({ extraHTTPHeaders: AS_VISITOR });
    const page = await context.newPage();
    let release!: () => void;
    const held = new Promise<void>((r) => { release = r; });
    await page.route('**/api/lookup', async (route) => { await held; await route.continue(); });
    await page.goto(`${server.url}/ip-4`);
    await page.getByText('Loading your location...').waitFor();
    await expect(page.getByText('This may take a few seconds').isVisible()).resolves.toBe(true);
    release();
    await page.getByText('Loading your location...').waitFor({ state: 'detached' });
    await page.locator('[data-testid="vpn-panel"]:not([data-kind="general"])').waitFor();
    await context.close();
  });
});

describe('/ip-4, privacy protection recommendations', () => {
  it("shows the VPN panel for the visitor's record and the checklist", async () => {
    const context = await browser.newContext({ extraHTTPHeaders: AS_VISITOR });
    const page = await context.newPage();
    await page.goto(`${server.url}/ip-4`);
    // The server's HTML has the general panel; it fits itself once the record is loaded.
    const panel = page.locator('[data-testid="vpn-panel"]:not([data-kind="general"])');
    await panel.waitFor();
    const headline = await panel.getByRole('heading', { level: 2 }).textContent();
    const titles: Record<string, string> = { low: 'Protect Your Privacy', medium: 'Moderate Privacy Risk', high: 'High Risk Location Detected' };
    // Nothing is detected for this visitor (a VPN, Tor or Relay user gets what was detected: visitor-states.test.ts).
    expect(panelKind(expected.data)).toBe('none');
    await expect(panel.getAttribute('data-kind')).resolves.toBe('none');
    expect(headline).toBe(titles[expected.data.risk_level]);
    // The urgency label says why in plain words beside it.
    const urgency = await panel.locator('.badge').first().textContent();
    const why = await panel.locator('.urgency-reason').textContent();
    expect(why?.split(',')[0]).toBe(urgency?.replace(' urgency', ''));
    await expect(panel.getByText('RECOMMENDED').count()).resolves.toBe(1);
    // No prices or ratings (they went stale unsourced); each offer links its provider's own site
    // (no affiliate links are configured, so none is marked sponsored and the panel says so).
    await expect(panel.getByText(/\/month|out of 5/).count()).resolves.toBe(0);
    const visits = panel.getByRole('link', { name: /^Visit / });
    await expect(visits.count()).resolves.toBe(2);
    for (const link of await visits.all()) {
      await expect(link.getAttribute('href')).resolves.toMatch(/^https:\/\/[a-z.]+\/$/);
      await expect(link.getAttribute('rel')).resolves.toBe('noopener');
    }
    await expect(panel.getByText('We earn nothing from these links.', { exact: false }).isVisible()).resolves.toBe(true);
    await expect(page.getByRole('heading', { name: 'Privacy checklist' }).isVisible()).resolves.toBe(true);
    await expect(page.locator('.checklist > li').count()).resolves.toBeGreaterThanOrEqual(5);
    await context.close();
  });
});
