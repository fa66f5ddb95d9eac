/**
 * /trust in a real browser: the accuracy tables show the figures of content/site/accuracy.json
 * (written by `npm run bench:accuracy`; tests/accuracy-bench.test.ts checks it is the bench's
 * output), each in its row and column, with the date and the number of probes.
 */
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { formatCount, formatKm, formatShare } from '../../src/lib/content/display.ts';
import type { AccuracyFigures } from '../../bench/accuracy/measure.ts';
import { launchBrowser, startServer, type RunningServer } from './harness.ts';

const [figures] = JSON.parse(readFileSync('content/site/accuracy.json', 'utf8')) as AccuracyFigures[];
const copy = JSON.parse(readFileSync('content/site/accuracy-copy.json', 'utf8'))[0] as {
  rows: Record<string, string>; cells: Record<string, string>; noRadius: string; cellsCaption: string;
};

let server: RunningServer;
let browser: Browser;
let page: Page;
beforeAll(async () => {
  [server, browser] = await Promise.all([startServer(), launchBrowser()]);
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
