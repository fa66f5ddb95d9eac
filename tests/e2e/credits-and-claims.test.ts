/**
 * What the pages claim, as a visitor sees it in a real browser: every credit in the footer
 * links its source and then its licence, /trust#credits names every source, the footer and
 * /trust say all a stored row holds (joined from content/site/kept-fields.json), and the one
 * accuracy percentage of the home page is the visitor's measured row of
 * content/site/accuracy.json, in the badge and under the map alike.
 */
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { keptList, type KeptField } from '../../src/lib/content/kept-fields.ts';
import { measuredPercent, type MeasuredCell } from '../../src/lib/measured-share.ts';
import type { LookupResponse } from '../../src/lib/record.ts';
import { AS_VISITOR, hydrated, launchBrowser, startServer, visitorRecord, type RunningServer } from '../support/browser-harness.ts';

const readJson = <T>(file: string): T => JSON.parse(readFileSync(`content/${file}`, 'utf8')) as T;
interface Credit { id: string; everyPage: boolean; name: string; href: string; licence: { name: string; href: string } }
const credits = readJson<Credit[]>('site/credits.json');
const kept = readJson<KeptField[]>('site/kept-fields.json');
const cells = readJson<Array<{ cells: MeasuredCell[] }>>('site/accuracy.json')[0]!.cells;

let server: RunningServer;
let browser: Browser;
let expected: LookupResponse;
let timezoneId: string | undefined;
beforeAll(async () => {
  [server, browser] = await Promise.all([startServer({ TRUST_PROXY: 'loopback' }), launchBrowser()]);
  ({ expected, timezoneId } = await visitorRecord(server.url));
});
afterAll(async () => { await browser?.close(); await server?.stop(); });

async function open(path: string): Promise<Page> {
  const context = await browser.newContext({ extraHTTPHeaders: AS_VISITOR, timezoneId });
  const page = await context.newPage();
  await page.goto(server.url + path);
  return page;
}

/** The links of a region in document order, as [name, href]. */
async function linksOf(region: ReturnType<Page['getByRole']>): Promise<Array<[string, string]>> {
  const links = await region.getByRole('link').all();
  return Promise.all(links.map(async (l) => [(await l.textContent())!.trim(), (await l.getAttribute('href'))!] as [string, string]));
}

describe('the footer', () => {
  it.each(['/', '/trust', '/ip-lookup/phoenix'])('on %s credits each source of what pages show, its licence linked right after it', async (path) => {
    const page = await open(path);
    const links = await linksOf(page.getByRole('contentinfo'));
    for (const c of credits.filter((x) => x.everyPage)) {
      const at = links.findIndex(([name, href]) => name === c.name && href === c.href);
      expect(at, `${c.name} is not in the footer`).toBeGreaterThanOrEqual(0);
      expect(links[at + 1], `${c.name}'s licence`).toEqual([c.licence.name, c.licence.href]);
    }
    expect(links).toContainEqual([expect.any(String), '/trust#credits']);
    await page.context().close();
  });

  it('says everything a stored lookup holds', async () => {
    const page = await open('/');
    await expect(page.getByRole('contentinfo').textContent()).resolves.toContain(keptList(kept, 'lookup'));
    await page.context().close();
  });
});

describe('/trust', () => {
  it('lists every source with its licence under "Data credits and licences"', async () => {
    const page = await open('/trust');
    const links = await linksOf(page.getByRole('region', { name: 'Data credits and licences' }));
    for (const c of credits) {
      const at = links.findIndex(([name, href]) => name === c.name && href === c.href);
      expect(at, `${c.name} is not credited`).toBeGreaterThanOrEqual(0);
      expect(links[at + 1], `${c.name}'s licence`).toEqual([c.licence.name, c.licence.href]);
    }
    await page.context().close();
  });

  it('says everything a stored lookup and a stored correction hold', async () => {
    const page = await open('/trust');
    const section = await page.getByRole('region', { name: 'What we keep about your visit' }).textContent();
    expect(section).toContain(keptList(kept, 'lookup'));
    expect(section).toContain(keptList(kept, 'correction'));
    expect(section).not.toMatch(/anonymous (?:statistic|network|prefix|record|row|data)/i);
    await page.context().close();
  });
});

describe("the home page's accuracy percentage", () => {
  it("is the measured share of the visitor's row, in the badge and under the map, and no other", async () => {
    const percent = measuredPercent(expected.data, cells);
    const measured = new Set(cells.flatMap((c) => (c.insideRadius === null ? [] : [`${Math.round(c.insideRadius * 100)}%`])));
    const page = await open('/');
    await hydrated(page);
    await page.getByText('How sure is this?').click();
    // The note is under the map, in its tab; the map hydrates when the tab shows it.
    await page.getByRole('tab', { name: 'Map' }).click();
    await hydrated(page);
    const badge = page.locator('[data-badge="confidence"]');
    const note = page.locator('figure.map-figure figcaption').first();
    await page.waitForFunction(() => /accuracy radius/.test(document.querySelector('figure.map-figure figcaption')?.textContent ?? ''));
    if (percent === null) {
      await expect(badge.count()).resolves.toBe(0);
      await expect(note.textContent()).resolves.not.toMatch(/%/);
    } else {
      await expect(badge.textContent()).resolves.toContain(`${percent}%`);
      await expect(note.textContent()).resolves.toContain(`${percent}%`);
    }
    const shown = [...((await page.locator('.verdict-row').first().textContent()) + ((await note.textContent()) ?? '')).matchAll(/\d+%/g)].map((m) => m[0]);
    for (const p of shown) expect(measured, `${p} is not a share accuracy.json holds`).toContain(p);
    await page.context().close();
  });
});
