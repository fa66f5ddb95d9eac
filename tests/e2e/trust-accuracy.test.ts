/**
 * /trust in a real browser: the accuracy figures lead the page in a sentence and a chart;
 * the tables show the figures of content/site/accuracy.json
 * (written by `npm run bench:accuracy`; tests/accuracy-bench.test.ts checks it is the bench's
 * output), each in its row and column, with the date and the number of probes; beside them,
 * visitors' own corrections, labelled as self-reported, as the analytics store computed them
 * over networks, with the networks they rest on and the method in one sentence, the rule of
 * which corrections count in words, and no figure below the minimum of networks and providers.
 */
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { formatCount, formatKm, formatShare } from '../../src/lib/content/display.ts';
import type { AccuracyFigures } from '../../bench/accuracy/measure.ts';
import { ACCURACY_MINIMUM, type Dashboard } from '../../src/lib/analytics.ts';
import { fillTemplate } from '../../src/lib/fill-template.ts';
import { engineFrom } from '../../src/server/lookup/engine.ts';
import { openSources } from '../../src/server/data/sources.ts';
import { launchBrowser, startServer, VISITOR, type RunningServer } from '../support/browser-harness.ts';
import { honestVisitors } from '../support/honest-visitors.ts';

const [figures] = JSON.parse(readFileSync('content/site/accuracy.json', 'utf8')) as AccuracyFigures[];
const copy = JSON.parse(readFileSync('content/site/accuracy-copy.json', 'utf8'))[0] as {
  rows: Record<string, string>; cells: Record<string, string>; noRadius: string; cellsCaption: string; chartCaption: string;
  selfReported: { heading: string; none: string; rule: string; tooFew: string; unavailable: string };
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
  /**
   * A visitor from `ip` (through the trusted loopback proxy) loads the page's lookup, as a
   * browser does, then corrects their place, as the site's own page posts it.
   */
  const correct = async (ip: string, latitude: number, longitude: number) => {
    const lookup = await fetch(server.url + '/api/lookup', {
      headers: { 'x-forwarded-for': ip, 'sec-fetch-mode': 'cors', 'user-agent': 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/142.0.0.0 Safari/537.36' },
    });
    expect(lookup.status).toBe(200);
    const res = await fetch(server.url + '/api/corrections', {
      method: 'POST',
      headers: { 'x-forwarded-for': ip, 'content-type': 'application/json', 'sec-fetch-site': 'same-origin' },
      body: JSON.stringify({ latitude, longitude }),
    });
    expect(res.status).toBe(202);
    return ((await res.json()) as { correction: { distance_km: number; network_type: string } }).correction;
  };
  /** Reloads /trust until the section shows `text` (the store writes in batches off the request path). */
  const showsEventually = (text: string) => expect.poll(async () => {
    await page.reload();
    await section().scrollIntoViewIfNeeded();
    await page.waitForSelector('[data-testid="self-reported-accuracy"]:is([data-state="loaded"], [data-state="unavailable"])');
    return section().getByText(text).isVisible();
  }, { timeout: 15_000 }).toBe(true);

  it('says so while no visitor has corrected a place, and says which corrections count', async () => {
    await section().scrollIntoViewIfNeeded();
    await page.waitForSelector('[data-testid="self-reported-accuracy"][data-state="loaded"]');
    await expect(section().getByRole('heading', { level: 3 }).textContent()).resolves.toBe(copy.selfReported.heading);
    await expect(section().getByText(copy.selfReported.none).isVisible()).resolves.toBe(true);
    await expect(section().getByText(copy.selfReported.rule).isVisible()).resolves.toBe(true);
    await expect(section().getByRole('table').count()).resolves.toBe(0);
  });

  it('states the minimum the figures are published from, in the words visitors read', () => {
    expect(copy.selfReported.rule).toContain(`at least ${ACCURACY_MINIMUM.networks} networks of at least ${ACCURACY_MINIMUM.asns} different providers`);
  });

  it('says there are not enough corrections yet below the minimum, and shows no figure', async () => {
    await correct(VISITOR, 48.137, 11.575);
    await correct('2001:4860:4860::8888', 40.713, -74.006);
    await correct('31.13.64.1', 51.507, -0.128);
    // What the section reads from: three networks, of as many providers as the databases name.
    await expect.poll(async () => ((await (await fetch(server.url + '/api/analytics?period=30d')).json()) as Dashboard).accuracy,
      { timeout: 15_000 }).toMatchObject({ networks: 3, published: false });
    const { asns } = ((await (await fetch(server.url + '/api/analytics?period=30d')).json()) as Dashboard).accuracy;
    const words = fillTemplate(copy.selfReported.tooFew, { minNetworks: '20', minAsns: '10', networks: '3', asns: String(asns) });
    await showsEventually(words);
    await expect(section().getByRole('table').count()).resolves.toBe(0);
  });

  it("shows the corrections' count, their networks and distances once they come from enough networks and providers", async () => {
    const honest = honestVisitors(engineFrom((await openSources()).sources), ACCURACY_MINIMUM.networks);
    for (const v of honest) await correct(v.ip, v.latitude, v.longitude);
    const total = ACCURACY_MINIMUM.networks + 3;
    await showsEventually(`Corrections: ${total}, networks: ${total}`);
    const rows = await section().locator('tbody tr').evaluateAll((trs) => trs.map((tr) => [...tr.children].flatMap((c) =>
      (c as HTMLElement).innerText.split(/\s*\n\s*/))));
    // The overall row: its name, what it rests on, a median and a 90th percentile in km.
    expect(rows[0]).toEqual(['All networks', `Corrections: ${total}, networks: ${total}`, expect.stringMatching(/ km$/), expect.stringMatching(/ km$/)]);
    await expect(section().getByText(tableText.accuracyMethod).isVisible()).resolves.toBe(true);
  }, 60_000);
});
