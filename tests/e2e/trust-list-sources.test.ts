/**
 * /trust names every public list the server fetches, each with a link to its home and to
 * its licence, and says how old the server's copy is (GET /api/data-sources): a source
 * fetched 12 minutes ago reads so, one never fetched says so. Axe finds nothing in the
 * section, in light and dark schemes.
 */
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import AxeBuilder from '@axe-core/playwright';
import type { Browser } from 'playwright-core';
import { launchBrowser, startServer, type RunningServer } from '../support/browser-harness.ts';

const sources = JSON.parse(readFileSync('content/site/list-sources.json', 'utf8')) as Array<{ id: string; title: string; credit: string; home: string }>;
// Each list is shown with the licence of its entry among the data credits.
const licences = new Map((JSON.parse(readFileSync('content/site/credits.json', 'utf8')) as Array<{ id: string; licence: { name: string; href: string } }>)
  .map((c) => [c.id, c.licence]));
let server: RunningServer;
let browser: Browser;

beforeAll(async () => {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'trust-lists-'));
  mkdirSync(path.join(dataDir, 'lists', 'sources'), { recursive: true });
  writeFileSync(path.join(dataDir, 'lists', 'sources', 'tor.json'), JSON.stringify({ failures: 0, validators: {}, fetchedAt: Date.now() - 12 * 60_000 - 5_000 }));
  [server, browser] = await Promise.all([startServer({ DATA_DIR: dataDir }), launchBrowser()]);
});
afterAll(async () => { await browser?.close(); await server?.stop(); });

describe('the list sources on /trust', () => {
  it.each(['light', 'dark'] as const)('names each list with its licence link and its age (%s scheme)', async (colorScheme) => {
    const context = await browser.newContext({ colorScheme });
    const page = await context.newPage();
    await page.goto(`${server.url}/trust`);
    const section = page.getByRole('region', { name: 'The lists behind the privacy checks' });
    await section.scrollIntoViewIfNeeded();
    const list = section.getByTestId('list-sources');
    await list.and(page.locator('[data-state="loaded"]')).waitFor();
    for (const source of sources) {
      const item = list.getByRole('listitem').filter({ has: page.getByRole('heading', { name: source.title }) });
      const licence = licences.get(source.credit)!;
      await expect(item.getByRole('link', { name: source.title }).getAttribute('href')).resolves.toBe(source.home);
      await expect(item.getByRole('link', { name: licence.name }).getAttribute('href')).resolves.toBe(licence.href);
    }
    const age = (title: string) => list.getByRole('listitem').filter({ has: page.getByRole('heading', { name: title }) }).locator('.age').textContent();
    await expect(age('Tor Project bulk exit list')).resolves.toBe('Our copy was fetched 12 minutes ago.');
    await expect(age('Apple iCloud Private Relay egress ranges')).resolves.toBe('Not fetched yet on this server.');
    const { violations } = await new AxeBuilder({ page }).include('[data-testid="list-sources"]').analyze();
    expect(violations.map((v) => v.id)).toEqual([]);
    await context.close();
  });
});
