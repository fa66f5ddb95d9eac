/**
 * The map frames the accuracy circle, on `/` and `/ip-2`, at a small and a large radius
 * and after a change of place (a GPS fix): the circle's box lies inside the map's box and
 * fills a good part of it (neither cut off nor hidden under the 22 px marker).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { formatAccuracyRadius } from '../../src/lib/badges.ts';
import { LookupResponseSchema } from '../../src/lib/record.ts';
import { hydrated, launchBrowser } from '../support/browser-harness.ts';
import { sharedServer, type SharedServer } from '../support/e2e-fixture.ts';

let server: SharedServer;
let browser: Browser;
beforeAll(async () => { server = sharedServer(); browser = await launchBrowser(); });
afterAll(async () => { await browser?.close(); });

/** The circle's and the map's boxes once the circle is inside (after any fly animation), in px. */
async function framed(page: Page) {
  await page.waitForFunction(() => {
    const box = document.querySelector('.map-canvas')?.getBoundingClientRect();
    const circle = document.querySelector('.leaflet-overlay-pane path.leaflet-interactive')?.getBoundingClientRect();
    if (!box || !circle || circle.width === 0) return false;
    const inside = circle.left >= box.left - 1 && circle.right <= box.right + 1 && circle.top >= box.top - 1 && circle.bottom <= box.bottom + 1;
    return inside && circle.width >= 0.25 * Math.min(box.width, box.height);
  }, undefined, { timeout: 10_000 });
  return page.evaluate(() => {
    const box = document.querySelector('.map-canvas')!.getBoundingClientRect();
    const circle = document.querySelector('.leaflet-overlay-pane path.leaflet-interactive')!.getBoundingClientRect();
    return { map: { width: box.width, height: box.height }, circle: { width: circle.width, height: circle.height } };
  });
}

async function radiusOf(ip: string): Promise<number> {
  const res = await fetch(`${server.url}/api/lookup`, { headers: { 'x-forwarded-for': ip } });
  return LookupResponseSchema.parse(await res.json()).data.accuracy_radius;
}

describe('the map fits the accuracy circle', () => {
  it.each([
    ['/', '8.8.8.8'],
    ['/ip-2', '4.0.10.10'],
  ])('on %s for %s, and again after a GPS fix of 100 m', async (path, ip) => {
    const radius = await radiusOf(ip);
    const context = await browser.newContext({
      extraHTTPHeaders: { 'x-forwarded-for': ip }, permissions: ['geolocation'],
      geolocation: { latitude: 48.858_37, longitude: 2.294_48, accuracy: 100 },
    });
    const page = await context.newPage();
    await page.goto(`${server.url}${path}`);
    await hydrated(page);
    if (path === '/') await page.getByRole('tab', { name: 'Map' }).click();
    else await page.getByTestId('map').scrollIntoViewIfNeeded();
    const before = await framed(page);
    expect(before.circle.width).toBeLessThanOrEqual(before.map.width);
    // A change of place: GPS makes the circle 100 m; the view follows it.
    if (path === '/') await page.getByRole('tab', { name: 'Overview' }).click();
    await page.getByRole('button', { name: /Precise GPS Location/ }).click();
    await page.locator('[data-badge="gps"]').waitFor();
    if (path === '/') await page.getByRole('tab', { name: 'Map' }).click();
    // The map has the fix once its caption gives the fix's radius: only then is the circle
    // on screen the 100 m one (the first circle was framed already, so framing alone proves nothing).
    await page.getByRole('figure', { name: `about ${formatAccuracyRadius(100)} around the marker` }).waitFor();
    const after = await framed(page);
    expect(after.circle.width).toBeGreaterThan(22 * 2); // well clear of the marker
    expect(radius).toBeGreaterThan(100); // the first circle was the larger one
    await context.close();
  });

  it('has a large radius for the /ip-2 address (the case a fixed zoom cut off)', async () => {
    expect(await radiusOf('4.0.10.10')).toBeGreaterThan(20_000);
  });
});
