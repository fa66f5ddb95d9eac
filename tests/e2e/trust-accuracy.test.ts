/**
 * /trust in a real browser: the accuracy figures lead the page in a sentence and a chart;
 * the tables show the figures of content/site/accuracy.json
 * (written by `npm run bench:accuracy`; tests/accuracy-bench.test.ts checks it is the bench's
 * output), each in its row and column, with the date and the number of probes; beside them,
 * visitors' own corrections, labelled as self-reported, as the analytics store computed them
 * over networks, with the networks they rest on and the method in one sentence.
 */
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { formatCount, formatKm, formatShare } from '../../src/lib/content/display.ts';
import type { AccuracyFigures } from '../../bench/accuracy/measure.ts';
import { formatKm as formatDistance } from '../../src/lib/analytics-format.ts';
import { launchBrowser, startServer, VISITOR, type RunningServer } from '../support/browser-harness.ts';

const [figures] = JSON.parse(readFileSync('content/site/accuracy.json', 'utf8')) as AccuracyFigures[];
const copy = JSON.parse(readFileSync('content/site/accuracy-copy.json', 'utf8'))[0] as {
  rows: Record<string, string>; cells: Record<string, string>; noRadius: string; cellsCaption: string; chartCaption: string;
  selfReported: { heading: string; none: string; unavailable: string };
};
const tableText = (JSON.parse(readFileSync('content/site/lookup-text.json', 'utf8')) as { analytics: { accuracyMethod: string; networkTypes: Record<string, string> } }[])[0]!.analytics;

let server: RunningServer;
let browser: Browser;
let page: Page;
beforeAll(async () => {
  [server, browser] = await Promise.all([startServer({ TRUST_PROXY: 'loopback' }), launchBrowser()]);
  page = await browser.newPage();
  await page.goto(server.url + '/trust');
});
afterAll(async () => { await browser?.close(); await server?.stop(); });

/** Every body row of the table named `name`: its header cell, then its data cells, as shown. */
async function tableRows(name: string | RegExp): Promise<string[][]> {
  const table = page.getByRole('table', { name });
  return table.locator('tbody tr').evaluateAll((rows) => rows.map((row) => [...row.children].map((cell) => cell.textContent?.trim() ?? '')));
}

describe('the accuracy figures on /trust', () => {
  it('lead the page for visitors: a sentence of what we show, then a chart of each source\'s median error', async () => {
    const shown = figures!.rows.find((r) => r.id === 'shown')!;
    const h2s = await page.getByRole('heading', { level: 2 }).allTextContents();
    expect(h2s[0]).toBe('How close is the location we show?');
    const sentence = await page.locator('.summary').textContent();
    expect(sentence).toContain(`within ${formatKm(shown.medianErrorKm)} of where the device really was`);
    expect(sentence).toContain(`nine in ten within ${formatKm(shown.p90ErrorKm)}`);
    expect(sentence).toContain(`for ${formatShare(shown.insideRadius!)} of them`);
    const chart = page.getByRole('figure', { name: copy.chartCaption });
    const bars = await chart.locator('li').evaluateAll((lis) => lis.map((li) => [li.querySelector('.label')?.textContent, li.querySelector('.value')?.textContent]));
    expect(bars).toEqual(figures!.rows.map((r) => [copy.rows[r.id], formatKm(r.medianErrorKm)]));
  });

  it('say when, on how many RIPE Atlas probes and with which command they were measured', async () => {
    const [year, month, day] = figures!.measuredOn.split('-').map(Number);
    const date = new Date(Date.UTC(year!, month! - 1, day!)).toLocaleDateString('en-US', { dateStyle: 'long', timeZone: 'UTC' });
    const caption = `Measured on ${formatCount(figures!.reportProbes)} RIPE Atlas probes on ${date} (${figures!.command})`;
    await expect(page.getByRole('table', { name: caption }).count()).resolves.toBe(1);
  });

  it('show each row of content/site/accuracy.json: inside the radius, median and p90 error, median radius, country', async () => {
    const shown = await tableRows(/RIPE Atlas probes/);
    expect(shown).toEqual(figures!.rows.map((r) => [
      copy.rows[r.id],
      r.insideRadius === null ? copy.noRadius : formatShare(r.insideRadius),
      formatKm(r.medianErrorKm), formatKm(r.p90ErrorKm),
      r.medianRadiusKm === null ? copy.noRadius : formatKm(r.medianRadiusKm),
      formatShare(r.countryRight),
    ]));
    // The row of what we show leads, and says what share of true places the radius held.
    expect(shown[0]![1]).toBe(formatShare(figures!.rows.find((r) => r.id === 'shown')!.insideRadius!));
  });

  it('show each row of the accuracy model with its radius and how often it held', async () => {
    expect(await tableRows(copy.cellsCaption)).toEqual(figures!.cells.map((c) => [
      copy.cells[c.id], formatCount(c.addresses), formatKm(c.radiusKm), formatShare(c.insideRadius), formatKm(c.medianErrorKm),
    ]));
  });
});

describe("visitors' self-reported accuracy on /trust", () => {
  const section = () => page.getByTestId('self-reported-accuracy');
  /** A visitor from `ip` (through the trusted loopback proxy) corrects their place, as the site's own page posts it. */
  const correct = async (ip: string, latitude: number, longitude: number) => {
    const res = await fetch(server.url + '/api/corrections', {
      method: 'POST',
      headers: { 'x-forwarded-for': ip, 'content-type': 'application/json', 'sec-fetch-site': 'same-origin' },
      body: JSON.stringify({ latitude, longitude }),
    });
    expect(res.status).toBe(202);
    return ((await res.json()) as { correction: { distance_km: number; network_type: string } }).correction;
  };

  it('says so while no visitor has corrected a place', async () => {
    await section().scrollIntoViewIfNeeded();
    await page.waitForSelector('[data-testid="self-reported-accuracy"][data-state="loaded"]');
    await expect(section().getByRole('heading', { level: 3 }).textContent()).resolves.toBe(copy.selfReported.heading);
    await expect(section().getByText(copy.selfReported.none).isVisible()).resolves.toBe(true);
    await expect(section().getByRole('table').count()).resolves.toBe(0);
  });

  it("shows the corrections' count, their networks and distances, as recorded, once there are some", async () => {
    // Three networks of one type; the visitor's network corrects twice, and its later correction replaces the first.
    await correct(VISITOR, 52.52, 13.405);
    const made = [await correct(VISITOR, 48.137, 11.575), await correct('2001:4860:4860::8888', 40.713, -74.006), await correct('31.13.64.1', 51.507, -0.128)];
    expect(new Set(made.map((c) => c.network_type)).size).toBe(1);
    const distances = made.map((c) => c.distance_km).sort((a, b) => a - b);
    // The store writes in batches off the request path: reload until the figures are there.
    await expect.poll(async () => {
      await page.reload();
      await section().scrollIntoViewIfNeeded();
      await page.waitForSelector('[data-testid="self-reported-accuracy"]:is([data-state="loaded"], [data-state="unavailable"])');
      return section().getByRole('table').count();
    }, { timeout: 15_000 }).toBe(1);
    // Each row: its name (the network type in words), what it rests on, the median and 90th percentile.
    const rows = await section().locator('tbody tr').evaluateAll((trs) => trs.map((tr) => [...tr.children].flatMap((c) =>
      (c as HTMLElement).innerText.split(/\s*\n\s*/))));
    // Median of three networks is the middle one; the 90th percentile by nearest rank is the largest.
    const km = (value: number) => `${formatDistance(value)} km`;
    const typeName = tableText.networkTypes[made[0]!.network_type];
    expect(typeName).toBeTruthy();
    expect(rows).toEqual([
      ['All networks', 'Corrections: 3, networks: 3', km(distances[1]!), km(distances[2]!)],
      [typeName, 'Corrections: 3, networks: 3', km(distances[1]!), km(distances[2]!)],
    ]);
    await expect(section().getByText(tableText.accuracyMethod).isVisible()).resolves.toBe(true);
  });
});
