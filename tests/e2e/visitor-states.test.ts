/**
 * What a visitor sees, state by state, at a 390 px phone and a 1280 px screen, light and
 * dark, against the built server with Tor and Private Relay list fixtures: a home
 * address, a corrected place, a Tor exit and a Private Relay user on the VPN tab, the
 * analytics tab and /ip-4. In each: no element wider than what holds it (the navigation
 * and the tabs included), the tabs on one row, and axe clean; a full-page screenshot of
 * each goes to reports/screenshots/ for review. Then the words of each state: the hero
 * after a correction, the VPN tab for Tor and Private Relay, the chart's labels inside
 * its picture, the accuracy table's network types in words, the phone's Menu button, and
 * /ip-4's offers in the server's HTML.
 */
import { mkdirSync } from 'node:fs';
import AxeBuilder from '@axe-core/playwright';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { Browser, BrowserContextOptions, Page } from 'playwright-core';
import { ACCURACY_MINIMUM } from '../../src/lib/analytics.ts';
import { CitySearchResponseSchema } from '../../src/lib/city-search.ts';
import { engineFrom } from '../../src/server/lookup/engine.ts';
import { openSources } from '../../src/server/data/sources.ts';
import { honestVisitors } from '../support/honest-visitors.ts';
import { hydrated, launchBrowser, startServer, type RunningServer } from '../support/browser-harness.ts';

/** Comcast in San Jose: a home broadband address both databases know. */
const HOME = '73.15.0.1';
const HOME_ZONE = 'America/Los_Angeles';
/** In tests/fixtures/lists/: a Tor exit and an iCloud Private Relay egress. */
const TOR = '185.220.101.1';
const RELAY = '172.224.226.1';
/** Honest visitors seeded before the six: with three of those they make ACCURACY_MINIMUM networks. */
const HONEST = ACCURACY_MINIMUM.networks - 3;
const UA = 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36';
const SHOTS = 'reports/screenshots';

let server: RunningServer;
let browser: Browser;
/** The correction the page stores after the visitor chose Munich (verification.ts, PlaceCorrection). */
let munich: Record<string, unknown>;

beforeAll(async () => {
  mkdirSync(SHOTS, { recursive: true });
  [server, browser] = await Promise.all([
    startServer({ TRUST_PROXY: 'loopback', TOR_EXIT_LIST: 'tests/fixtures/lists/tor-exits.txt', PRIVATE_RELAY_LIST: 'tests/fixtures/lists/private-relay.csv' }),
    launchBrowser(),
  ]);
  // Lookups and corrections from browsers (headless Chromium is a bot to isbot and is not counted).
  // First HONEST honest visitors, so that with the three below the accuracy is published
  // (ACCURACY_MINIMUM networks), and the recent lookups are still the six after them.
  const honest = honestVisitors(engineFrom((await openSources()).sources), HONEST);
  for (const v of honest) {
    await fetch(`${server.url}/api/lookup`, { headers: { 'user-agent': UA, 'sec-fetch-mode': 'cors', 'x-forwarded-for': v.ip } });
    const res = await fetch(`${server.url}/api/corrections`, {
      method: 'POST', headers: { 'x-forwarded-for': v.ip, 'content-type': 'application/json', 'sec-fetch-site': 'same-origin' },
      body: JSON.stringify({ latitude: v.latitude, longitude: v.longitude }),
    });
    expect(res.status).toBe(202);
  }
  const visitors = [...honest.map((v) => v.ip), HOME, TOR, RELAY, '81.2.69.142', '2001:4860:4860::8888', '8.8.8.8'];
  for (const ip of visitors.slice(HONEST)) await fetch(`${server.url}/api/lookup`, { headers: { 'user-agent': UA, 'sec-fetch-mode': 'cors', 'x-forwarded-for': ip } });
  for (const [ip, latitude, longitude] of [[HOME, 37.77, -122.42], [TOR, 52.52, 13.4], ['81.2.69.142', 53.48, -2.24]] as const) {
    const res = await fetch(`${server.url}/api/corrections`, {
      method: 'POST', headers: { 'x-forwarded-for': ip, 'content-type': 'application/json', 'sec-fetch-site': 'same-origin' }, body: JSON.stringify({ latitude, longitude }),
    });
    expect(res.status).toBe(202);
  }
  // The store writes in batches off the request path: wait until it counts them all.
  const counted = async () => ((await (await fetch(`${server.url}/api/analytics?period=7d`)).json()) as { lookups: { value: number } }).lookups.value;
  await vi.waitFor(async () => {
    if ((await counted()) < visitors.length) throw new Error('the analytics store never counted the seeded lookups');
  }, { timeout: 10_000, interval: 100 });
  const [city] = CitySearchResponseSchema.parse(await (await fetch(`${server.url}/api/cities?q=Munich&limit=1`)).json()).results;
  munich = { ip: HOME, city: city!.city, region: city!.region, country: city!.country, country_code: city!.country_code,
    latitude: city!.latitude, longitude: city!.longitude, verified: true, population: city!.population };
});
afterAll(async () => { await browser?.close(); await server?.stop(); });

type Scheme = 'light' | 'dark';
interface Visit { width?: number; scheme?: Scheme; ip?: string | null; corrected?: boolean; javaScript?: boolean }

/** Opens `path` as a visitor from `ip` (null: the operator on loopback), hydrated. */
async function open(path: string, { width = 1280, scheme = 'light', ip = HOME, corrected = false, javaScript = true }: Visit = {}) {
  const options: BrowserContextOptions = { viewport: { width, height: 900 }, colorScheme: scheme, javaScriptEnabled: javaScript,
    timezoneId: HOME_ZONE, ...(ip ? { extraHTTPHeaders: { 'x-forwarded-for': ip } } : {}) };
  const context = await browser.newContext(options);
  if (corrected) await context.addInitScript((stored) => localStorage.setItem('whatismyip:correction', JSON.stringify(stored)), munich);
  const page = await context.newPage();
  await page.goto(server.url + path);
  if (javaScript) await hydrated(page);
  return { context, page };
}

/**
 * Every rendered element that sticks out of what holds it: the nearest ancestor that
 * clips or scrolls, else the screen. Content of a scroll region a keyboard can reach
 * (a focusable box of a wide table) may be wider by design; a row that scrolls without
 * being such a region (the old navigation) may not.
 */
function overflowing(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const name = (el: Element) => `${el.tagName.toLowerCase()}${el.id ? `#${el.id}` : ''}${el.classList.length ? `.${[...el.classList].join('.')}` : ''} "${(el.textContent ?? '').trim().slice(0, 30)}"`;
    const out: string[] = [];
    const screen = { left: 0, right: document.documentElement.clientWidth };
    for (const el of document.body.querySelectorAll('*')) {
      if (el.closest('.visually-hidden, .skip-link, .leaflet-container, [hidden]')) continue;
      const box = el.getBoundingClientRect();
      // Not rendered: hidden, or inside a closed disclosure (its content is skipped, not laid out where it would show).
      if (box.width === 0 || box.height === 0 || !el.checkVisibility({ visibilityProperty: true })) continue;
      let holder: { left: number; right: number } = screen;
      let scrollRegion = false;
      for (let a = el.parentElement; a && a !== document.body; a = a.parentElement) {
        const overflow = getComputedStyle(a).overflowX;
        if (overflow === 'visible') continue;
        holder = a.getBoundingClientRect();
        scrollRegion = (overflow === 'auto' || overflow === 'scroll') && a.tabIndex >= 0;
        break;
      }
      if (!scrollRegion && (box.left < holder.left - 1 || box.right > holder.right + 1)) out.push(`${name(el)}: ${Math.round(box.left)}..${Math.round(box.right)} in ${Math.round(holder.left)}..${Math.round(holder.right)}`);
    }
    return out;
  });
}

/** The tabs: whether they share one row, and whether the tab list shows them all without scrolling. */
function tabRow(page: Page) {
  return page.locator('[role="tablist"]').evaluate((list) => {
    const tops = [...list.querySelectorAll('[role="tab"]')].map((t) => Math.round(t.getBoundingClientRect().top));
    return { rows: new Set(tops).size, fits: list.scrollWidth <= list.clientWidth };
  });
}

/**
 * Chooses a tab and scrolls its panel into view, as a visitor reads it: the analytics
 * island hydrates only once it is in view (`client:visible`), and at 390 px the tab row
 * can sit at the bottom of the screen, where a click does not scroll and the panel opens
 * below the fold.
 */
async function showTab(page: Page, name: string) {
  await page.getByRole('tab', { name }).click();
  await page.getByRole('tabpanel', { name }).scrollIntoViewIfNeeded();
}

/** The states of the review, each opened and brought to what the visitor looks at. */
const STATES: Record<string, { path: string; ip?: string | null; corrected?: boolean; ready: (page: Page) => Promise<unknown> }> = {
  home: { path: '/', ready: (page) => page.getByTestId('accuracy').filter({ hasText: 'San Jose' }).waitFor() },
  corrected: { path: '/', corrected: true, ready: async (page) => {
    await page.getByTestId('accuracy').filter({ hasText: 'the city you chose' }).waitFor();
    await page.locator('summary', { hasText: 'What your IP address says' }).click();
  } },
  tor: { path: '/', ip: TOR, ready: async (page) => { await page.getByRole('tab', { name: 'VPN' }).click(); await page.getByTestId('vpn-panel').waitFor(); } },
  relay: { path: '/', ip: RELAY, ready: async (page) => { await page.getByRole('tab', { name: 'VPN' }).click(); await page.getByTestId('vpn-panel').waitFor(); } },
  analytics: { path: '/', ip: null, ready: async (page) => {
    await showTab(page, 'Analytics');
    await page.getByRole('table', { name: 'Recent lookups' }).waitFor();
  } },
  'ip-4': { path: '/ip-4', ready: (page) => page.locator('[data-testid="vpn-panel"][data-kind="none"]').waitFor() },
};

const COMBOS = [390, 1280].flatMap((width) => (['light', 'dark'] as const).flatMap((scheme) => Object.keys(STATES).map((state) => [width, scheme, state] as const)));

describe('each state, at both widths and in both schemes', () => {
  it.each(COMBOS)('at %i px, %s: %s fits its screen, keeps the tabs on one row and passes axe', async (width, scheme, state) => {
    const { path, ip, corrected, ready } = STATES[state]!;
    const { context, page } = await open(path, { width, scheme, ip, corrected });
    await ready(page);
    expect(await overflowing(page)).toEqual([]);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width);
    if (path === '/') expect(await tabRow(page)).toEqual({ rows: 1, fits: true });
    const { violations } = await new AxeBuilder({ page }).analyze();
    expect(violations.map((v) => `${v.id} (${v.nodes.length}) ${v.help}: ${v.nodes[0]?.target.join(' ')}`)).toEqual([]);
    await page.screenshot({ path: `${SHOTS}/${state}-${width}-${scheme}.png`, fullPage: true });
    await context.close();
  });
});

describe('the main navigation', () => {
  it('folds behind a Menu button on a phone: announced collapsed, opened from the keyboard, every link within the screen', async () => {
    const { context, page } = await open('/blog', { width: 390 });
    const nav = page.getByRole('navigation', { name: 'Main' });
    const menu = nav.locator('summary');
    await expect(menu.textContent()).resolves.toMatch(/^\s*Menu\s*$/);
    await expect(nav.getByRole('link', { name: 'Privacy tips' }).isVisible()).resolves.toBe(false);
    // What assistive technology is told: a disclosure whose expanded state follows it.
    const cdp = await context.newCDPSession(page);
    const state = async () => {
      const { root } = await cdp.send('DOM.getDocument');
      const { nodeId } = await cdp.send('DOM.querySelector', { nodeId: root.nodeId, selector: 'nav[aria-label="Main"] summary' });
      const { nodes } = await cdp.send('Accessibility.getPartialAXTree', { nodeId, fetchRelatives: false });
      const node = nodes.find((n) => !n.ignored)!;
      return { role: node.role?.value, name: node.name?.value, expanded: node.properties?.find((p) => p.name === 'expanded')?.value.value };
    };
    await expect(state()).resolves.toEqual({ role: 'DisclosureTriangle', name: 'Menu', expanded: false });
    // Skip link, brand, then the button.
    await page.keyboard.press('Tab');
    await page.keyboard.press('Tab');
    await page.keyboard.press('Tab');
    await expect(menu.evaluate((el) => el === document.activeElement)).resolves.toBe(true);
    await page.keyboard.press('Enter');
    await expect(state()).resolves.toEqual({ role: 'DisclosureTriangle', name: 'Menu', expanded: true });
    const links = nav.getByRole('link');
    expect(await links.count()).toBe(7);
    for (const link of await links.all()) {
      const box = (await link.boundingBox())!;
      expect(box.x).toBeGreaterThanOrEqual(0);
      expect(box.x + box.width).toBeLessThanOrEqual(390);
      expect(box.height).toBeGreaterThanOrEqual(44);
    }
    const { violations } = await new AxeBuilder({ page }).include('header').analyze();
    expect(violations.map((v) => `${v.id}: ${v.help}`)).toEqual([]);
    await page.screenshot({ path: `${SHOTS}/menu-390-light.png` });
    await page.keyboard.press('Tab');
    await expect(page.evaluate(() => document.activeElement?.textContent)).resolves.toBe('My IP');
    await expect(nav.getByRole('link', { name: 'Blog' }).getAttribute('aria-current')).resolves.toBe('page');
    expect(await overflowing(page)).toEqual([]);
    await context.close();
  });

  it('shows every link and no button on a wide screen, and without JavaScript on a phone the button still opens it', async () => {
    const wide = await open('/blog', { width: 1280 });
    const nav = wide.page.getByRole('navigation', { name: 'Main' });
    await expect(nav.locator('summary').isVisible()).resolves.toBe(false);
    for (const link of await nav.getByRole('link').all()) await expect(link.isVisible()).resolves.toBe(true);
    const tops = await nav.getByRole('listitem').evaluateAll((items) => items.map((li) => Math.round(li.getBoundingClientRect().top)));
    expect(new Set(tops).size).toBe(1);
    // Inside the closed disclosure, yet in the accessibility tree and the tab order: skip link, brand, then the first link.
    const cdp = await wide.context.newCDPSession(wide.page);
    const { nodes } = await cdp.send('Accessibility.getFullAXTree');
    const exposed = nodes.filter((n) => n.role?.value === 'link' && !n.ignored).map((n) => n.name?.value);
    for (const label of ['My IP', 'Simple view', 'IP tools', 'Tools', 'Guides', 'Blog', 'Privacy tips']) expect(exposed).toContain(label);
    for (let i = 0; i < 3; i++) await wide.page.keyboard.press('Tab');
    await expect(wide.page.evaluate(() => document.activeElement?.textContent)).resolves.toBe('My IP');
    await wide.context.close();

    const phone = await open('/blog', { width: 390, javaScript: false });
    await phone.page.locator('nav summary').click();
    await expect(phone.page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Privacy tips' }).isVisible()).resolves.toBe(true);
    await phone.context.close();
  });
});

describe('the hero after a correction', () => {
  it("says the place is the visitor's choice, sized by the city, and keeps what the IP address says one click away", async () => {
    const { context, page } = await open('/', { corrected: true });
    const sentence = page.getByTestId('accuracy');
    await sentence.filter({ hasText: 'Munich' }).waitFor();
    await expect(sentence.textContent()).resolves.toMatch(/^In Munich, the city you chose \(it reaches about \d+ km from its centre\)$/);
    await expect(sentence.textContent()).resolves.not.toMatch(/databases/);
    // The IP-based place and its accuracy, behind a disclosure the keyboard opens.
    const ipPlace = page.getByTestId('ip-place');
    await expect(ipPlace.isVisible()).resolves.toBe(false);
    const summary = page.locator('summary', { hasText: 'What your IP address says' });
    await summary.focus();
    await page.keyboard.press('Enter');
    await expect(ipPlace.textContent()).resolves.toMatch(/^Your IP address alone points to San Jose, California, United States\. Somewhere within about \d+ km of San Jose/);
    await expect(page.locator('[data-badge="radius"]').isVisible()).resolves.toBe(true);
    // The map's circle is the city's too.
    await page.getByRole('tab', { name: 'Map' }).click();
    // The map hydrates when it comes into view (client:visible), then reads the record.
    await page.locator('.map-figure').scrollIntoViewIfNeeded();
    await expect.poll(() => page.locator('.map-figure figcaption').textContent(), { timeout: 10_000 }).toMatch(/^The circle is Munich, the city you chose: it reaches about \d+ km from its centre\./);
    await context.close();
  });
});

describe('the VPN tab', () => {
  it('tells a Tor user they are on Tor, offers no VPN and says why', async () => {
    const { context, page } = await open('/', { ip: TOR });
    await page.getByRole('tab', { name: 'VPN' }).click();
    const panel = page.getByTestId('vpn-panel');
    await expect(panel.getByRole('heading', { level: 3 }).textContent()).resolves.toBe('You are browsing through Tor');
    await expect(panel.textContent()).resolves.toContain('No VPN needed: for browsing, Tor already hides your address better than a VPN would');
    await expect(panel.getByRole('link', { name: /^Visit / }).count()).resolves.toBe(0);
    await expect(panel.textContent()).resolves.not.toMatch(/Upgrade|RECOMMENDED/);
    await context.close();
  });

  it('tells a Private Relay user what Relay covers, and offers a VPN only for the rest, saying why', async () => {
    const { context, page } = await open('/', { ip: RELAY });
    await page.getByRole('tab', { name: 'VPN' }).click();
    const panel = page.getByTestId('vpn-panel');
    await expect(panel.getByRole('heading', { level: 3 }).textContent()).resolves.toBe('iCloud Private Relay is on');
    await expect(panel.textContent()).resolves.toContain('Other browsers and most apps still connect from your own address.');
    await expect(panel.textContent()).resolves.toContain('A VPN is worth it only if you want every app covered, not just Safari.');
    await expect(panel.getByRole('link', { name: /^Visit / }).count()).resolves.toBe(2);
    await expect(panel.textContent()).resolves.not.toMatch(/VPN Detected|Upgrade/);
    await context.close();
  });

  it('draws the offers\' icons as inline SVG hidden from assistive technology, not emoji', async () => {
    const html = await (await fetch(`${server.url}/ip-4`)).text();
    const offers = html.slice(html.indexOf('class="offers"'), html.indexOf('class="disclosure"'));
    expect(offers).toMatch(/<svg class="offer-icon" viewBox="0 0 24 24" aria-hidden="true"><path d="[^"]+"><\/path><\/svg>/);
    expect(offers).not.toMatch(/\p{Extended_Pictographic}/u);
  });
});

describe('/ip-4 without JavaScript', () => {
  it("carries the offers and their links in the server's HTML", async () => {
    const html = await (await fetch(`${server.url}/ip-4`)).text();
    expect(html).toContain('data-testid="vpn-panel"');
    expect(html).toMatch(/<a class="button" href="https:\/\/protonvpn\.com\/" rel="noopener" target="_blank">Visit Proton VPN<\/a>/);
    const { context, page } = await open('/ip-4', { javaScript: false });
    const panel = page.getByTestId('vpn-panel');
    await expect(panel.getByRole('heading', { level: 2 }).textContent()).resolves.toBe('Protect Your Privacy');
    await expect(panel.getByRole('link', { name: /^Visit / }).count()).resolves.toBe(2);
    await expect(panel.getByText('RECOMMENDED').isVisible()).resolves.toBe(true);
    await context.close();
  });
});

describe('the analytics tab', () => {
  it.each([390, 1280])('at %i px keeps every label of the chart inside its picture, for each period', async (width) => {
    const { context, page } = await open('/', { width, ip: null });
    await showTab(page, 'Analytics');
    for (const [period, name, bars] of [['7d', 'Lookups per day (UTC)', 7], ['24h', 'Lookups per hour (UTC)', 24], ['30d', 'Lookups per day (UTC)', 30]] as const) {
      if (period !== '7d') await page.getByLabel('Period').selectOption(period);
      const chart = page.getByRole('img', { name });
      await expect.poll(() => chart.locator('rect:not(.track)').count(), { timeout: 20_000 }).toBe(bars);
      const outside = await chart.evaluate((svg) => {
        const box = svg.getBoundingClientRect();
        return [...svg.querySelectorAll('text')].map((t) => [t.textContent, t.getBoundingClientRect()] as const)
          .filter(([, r]) => r.left < box.left || r.right > box.right || r.top < box.top || r.bottom > box.bottom)
          .map(([text, r]) => `${text} at ${Math.round(r.left - box.left)}..${Math.round(r.right - box.left)} of ${Math.round(box.width)}`);
      });
      expect(outside, period).toEqual([]);
    }
    await context.close();
  });

  it('names network types in words, fits the country list to its content and tells a lone bar in words', async () => {
    const { context, page } = await open('/', { ip: null });
    await showTab(page, 'Analytics');
    const accuracy = page.locator('.accuracy');
    await accuracy.locator('table').waitFor();
    const names = await accuracy.locator('tbody th').evaluateAll((cells) => cells.map((c) => c.firstChild?.textContent));
    expect(names[0]).toBe('All networks');
    expect(names).toContain('Home broadband');
    for (const key of ['other', 'residential', 'datacenter', 'business', 'mobile']) expect(names).not.toContain(key);
    await expect(accuracy.locator('tbody tr').first().locator('th .group-counts').textContent()).resolves.toBe(`Corrections: ${HONEST + 3}, networks: ${HONEST + 3}`);
    // Each card of the grid ends with its content: no empty box beside the taller chart.
    const slack = await page.locator('.analytics-grid > .card').evaluateAll((cards) => cards.map((card) => {
      const last = card.lastElementChild!.getBoundingClientRect().bottom;
      const style = getComputedStyle(card);
      return card.getBoundingClientRect().bottom - last - parseFloat(style.paddingBottom) - parseFloat(style.borderBottomWidth);
    }));
    for (const gap of slack) expect(gap).toBeLessThanOrEqual(1);
    const total = HONEST + 6;
    await expect(page.locator('.activity-summary').textContent()).resolves.toMatch(new RegExp(`^${total} lookups from \\w+ \\d+ to \\w+ \\d+\\. Busiest: \\w+ \\d+, with ${total}\\.$`));
    await context.close();
  });
});
