/**
 * The verification tab in a real Chromium against the built server and its real city
 * index, as a visitor from a public address (a trusted proxy's X-Forwarded-For): the
 * whole correction with the keyboard only, the toast, the corrected place in hero, badges
 * and map, a reload, undo, stale answers, the failing-search fallback, the page without
 * JavaScript, and axe on both modes.
 */
import AxeBuilder from '@axe-core/playwright';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, BrowserContextOptions, Page } from 'playwright-core';
import { AS_VISITOR, hydrated, launchBrowser, startServer, visitorRecord, type RunningServer } from '../support/browser-harness.ts';

/** A browser's User-Agent (headless Chromium's names it a bot). */
const BROWSER_UA = 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/142.0.0.0 Safari/537.36';

let server: RunningServer;
let browser: Browser;
let timezoneId: string | undefined;

beforeAll(async () => {
  [server, browser] = await Promise.all([startServer({ TRUST_PROXY: 'loopback' }), launchBrowser()]);
  ({ timezoneId } = await visitorRecord(server.url));
});
afterAll(async () => {
  if (server && server.process.exitCode !== null) console.error(`server exited early:\n${server.output()}`);
  await browser?.close();
  await server?.stop();
});

async function visit(path = '/', options: BrowserContextOptions = {}) {
  const context = await browser.newContext({ extraHTTPHeaders: AS_VISITOR, timezoneId, ...options });
  const page = await context.newPage();
  await page.goto(`${server.url}${path}`);
  if (options.javaScriptEnabled !== false) await hydrated(page);
  return { context, page };
}

/** Presses Tab until the focused element has this accessible text (at most 8 times). */
async function tabTo(page: Page, text: string) {
  for (let i = 0; i < 8; i++) {
    await page.keyboard.press('Tab');
    if (await page.evaluate(() => document.activeElement?.textContent?.trim()) === text) return;
  }
  throw new Error(`Tab never reached "${text}"`);
}

/** Keyboard only: from the Overview tab, Arrow Right opens Verification, Tab reaches 'Correct Location', Enter opens the search. */
async function openSearchByKeyboard(page: Page) {
  await page.getByRole('tab', { name: 'Overview' }).focus();
  await page.keyboard.press('ArrowRight');
  await expect(page.getByRole('tab', { name: 'Verification' }).getAttribute('aria-selected')).resolves.toBe('true');
  // The card hydrates once its tab shows it (client:visible); keys pressed before that are lost.
  // Astro marks the island hydrated when React starts; the button is enabled by an effect after
  // that, and Tab skips a disabled button, so wait for the button itself.
  await hydrated(page);
  await page.waitForFunction(() => [...document.querySelectorAll<HTMLButtonElement>('.verification button')]
    .some((button) => button.textContent?.trim() === 'Correct Location' && !button.disabled));
  await tabTo(page, 'Correct Location');
  await page.keyboard.press('Enter');
  await page.getByRole('combobox', { name: 'Search for your city' }).waitFor();
}

const place = (page: Page) => page.getByTestId('place').textContent();

describe('the verification tab', () => {
  it('corrects the place with the keyboard only: toast, hero, badges, map, a reload, then undo', async () => {
    const { context, page } = await visit();
    await expect(place(page)).resolves.not.toContain('Munich');
    await openSearchByKeyboard(page);
    const box = page.getByRole('combobox', { name: 'Search for your city' });
    await expect(box.evaluate((el) => el === document.activeElement)).resolves.toBe(true);

    await page.keyboard.type('mu');
    await expect(page.getByText('Type at least 3 characters to search for cities').isVisible()).resolves.toBe(true);
    await page.keyboard.type('nch');
    await page.getByRole('option').first().waitFor();
    await expect(page.getByText('Type at least 3 characters to search for cities').count()).resolves.toBe(0);
    await expect(box.getAttribute('aria-expanded')).resolves.toBe('true');

    await page.keyboard.press('ArrowDown');
    const first = page.getByRole('option').first();
    await expect(first.getAttribute('aria-selected')).resolves.toBe('true');
    await expect(box.getAttribute('aria-activedescendant')).resolves.toBe(await first.getAttribute('id'));
    await expect(first.textContent()).resolves.toContain('Munich');
    await page.keyboard.press('ArrowDown');
    await page.keyboard.press('ArrowUp');
    await expect(first.getAttribute('aria-selected')).resolves.toBe('true');

    // A correction counts only after a recorded lookup from the visitor's network; headless
    // Chromium is a bot to isbot, so its page load was not recorded: the lookup a browser's is.
    await fetch(`${server.url}/api/lookup`, { headers: { ...AS_VISITOR, 'user-agent': BROWSER_UA, 'sec-fetch-mode': 'cors' } });
    const reported = page.waitForRequest((r) => r.url().endsWith('/api/corrections') && r.method() === 'POST');
    const answered = page.waitForResponse((r) => r.url().endsWith('/api/corrections') && r.request().method() === 'POST');
    await page.keyboard.press('Enter');
    expect(JSON.parse((await reported).postData() ?? '{}')).toEqual({ latitude: 48.13743, longitude: 11.57549 });
    // Recorded: the page posts JSON from its own origin, all the route accepts (403 or 415 otherwise).
    expect((await reported).headers()['content-type']).toBe('application/json');
    expect((await answered).status()).toBe(202);

    // Back in view mode, focus on 'Correct Location', the toast for 3 s.
    const toast = page.locator('.verification .toast');
    await expect(toast.textContent()).resolves.toBe('Location updated to Munich, Bavaria, Germany');
    await expect(page.evaluate(() => document.activeElement?.textContent)).resolves.toBe('Correct Location');
    await expect(page.getByRole('combobox').count()).resolves.toBe(0);
    const shownAt = Date.now();
    await toast.waitFor({ state: 'detached', timeout: 5000 });
    expect(Date.now() - shownAt).toBeGreaterThan(2000);

    // Hero, its sentence, location card and the card's own line show the chosen place, marked as the visitor's.
    await expect(place(page)).resolves.toBe('Munich, Bavaria, GermanyCorrected by you');
    await expect(page.getByTestId('accuracy').textContent()).resolves.toMatch(/^In Munich, the city you chose \(it reaches about \d+ km from its centre\)$/);
    await expect(page.getByTestId('verification-place').textContent()).resolves.toBe('Munich, Bavaria, Germany');

    // The map moves to Munich, and its popup says so.
    await page.getByRole('tab', { name: 'Map' }).click();
    const marker = page.locator('.leaflet-marker-icon');
    await marker.waitFor();
    await marker.click();
    await expect(page.locator('.leaflet-popup-content').textContent()).resolves.toMatch(/^Munich, Germany48\.1374\d*, 11\.5754\d*/);

    // A reload keeps the correction for this address.
    await page.reload();
    await hydrated(page);
    await page.waitForFunction(() => document.querySelector('[data-testid="place"]')?.textContent?.includes('Munich'));
    await expect(place(page)).resolves.toContain('Corrected by you');

    // Undo, with the keyboard, and the IP-based place is back, after a reload too.
    await page.getByRole('tab', { name: 'Verification' }).click();
    await page.getByRole('button', { name: 'Undo correction' }).focus();
    await page.keyboard.press('Enter');
    await expect(place(page)).resolves.not.toContain('Munich');
    await expect(page.getByTestId('accuracy').textContent()).resolves.not.toContain('the city you chose');
    await page.reload();
    await hydrated(page);
    await expect(place(page)).resolves.not.toContain('Corrected by you');
    await context.close();
  });

  it('Escape and Back return to view mode with the query and results cleared', async () => {
    const { context, page } = await visit();
    await openSearchByKeyboard(page);
    await page.keyboard.type('lond');
    await page.getByRole('option').first().waitFor();
    await page.keyboard.press('Escape');
    await expect(page.getByRole('combobox').count()).resolves.toBe(0);
    await expect(page.evaluate(() => document.activeElement?.textContent)).resolves.toBe('Correct Location');
    await page.getByRole('button', { name: 'Wrong country' }).click();
    await expect(page.getByRole('combobox').inputValue()).resolves.toBe('');
    await expect(page.getByRole('option').count()).resolves.toBe(0);
    await page.getByRole('button', { name: 'Back' }).click();
    await expect(page.getByRole('button', { name: 'Correct Location' }).isVisible()).resolves.toBe(true);
    await context.close();
  });

  it('never shows the answer to an older query after a newer one', async () => {
    const { context, page } = await visit();
    // The answer for 'lon' is held back until the one for 'londrina' has arrived.
    let releaseOld!: () => void;
    const oldHeld = new Promise<void>((resolve) => { releaseOld = resolve; });
    let oldSent!: () => void;
    const oldPassed = new Promise<void>((resolve) => { oldSent = resolve; });
    await page.route('**/api/cities?q=lon&*', async (route) => { await oldHeld; await route.continue().catch(() => undefined); oldSent(); });
    await openSearchByKeyboard(page);
    const oldAsked = page.waitForRequest((r) => r.url().includes('q=lon&'));
    await page.keyboard.type('lon');
    await oldAsked;
    await page.keyboard.type('drina');
    await page.getByRole('option', { name: /^Londrina/ }).waitFor();
    releaseOld();
    await oldPassed;
    // The old answer went on to the page (which may have aborted it); two frames later whatever it started has run.
    await page.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve))));
    const options = await page.getByRole('option').allTextContents();
    expect(options.some((o) => o.startsWith('Londrina'))).toBe(true);
    expect(options.some((o) => o.startsWith('London'))).toBe(false);
    await context.close();
  });

  it('offers the typed city as unverified when the search fails, and reports nothing', async () => {
    const { context, page } = await visit();
    await page.route('**/api/cities?*', (route) => route.fulfill({
      status: 503, contentType: 'application/json', body: JSON.stringify({ error: { code: 'cities_unavailable', message: 'down' } }),
    }));
    let reported = false;
    page.on('request', (r) => { if (r.url().endsWith('/api/corrections')) reported = true; });
    await openSearchByKeyboard(page);
    await page.keyboard.type('Springfield, Illinois');
    const option = page.getByRole('option');
    await option.waitFor();
    await expect(option.count()).resolves.toBe(1);
    await expect(option.textContent()).resolves.toBe('Springfieldunverified');
    await expect(page.getByText('The city search is unavailable right now').isVisible()).resolves.toBe(true);
    await page.keyboard.press('ArrowDown');
    await page.keyboard.press('Enter');
    await expect(place(page)).resolves.toMatch(/^Springfield, .*Corrected by you \(unverified\)$/);
    await expect(page.getByText('You set the city to Springfield; it is unverified.').isVisible()).resolves.toBe(true);
    // A report would be sent as the city is chosen: the page's next request comes after it.
    const next = page.waitForRequest((r) => r.url().endsWith('/healthz'));
    await page.evaluate(() => { void fetch('/healthz'); });
    await next;
    expect(reported).toBe(false);
    await context.close();
  });

  it('says plainly without JavaScript that correcting needs it, with nothing enabled', async () => {
    // The note is a <noscript>: browsers with scripting off show it. (Chromium with scripts
    // disabled through the DevTools protocol still parses it as text, so the HTML is read.)
    const html = await (await fetch(`${server.url}/`, { headers: AS_VISITOR })).text();
    const panel = html.slice(html.indexOf('id="panel-verification"'));
    expect(panel).toMatch(/^[^]*?<noscript><p class="noscript">Correcting your location needs JavaScript, which is turned off in your browser\./);
    const { context, page } = await visit('/', { javaScriptEnabled: false });
    await page.getByRole('tab', { name: 'Verification' }).click();
    for (const name of ['Correct Location', 'Wrong city', 'Wrong country', 'VPN location shown']) {
      await expect(page.getByRole('button', { name }).isDisabled(), name).resolves.toBe(true);
    }
    await context.close();
  });

  it('is rendered in the first HTML with its header badge', async () => {
    const html = await (await fetch(`${server.url}/`, { headers: AS_VISITOR })).text();
    expect(html).toContain('id="panel-verification"');
    expect(html).toMatch(/data-testid="verification-badge"[^>]*>(High Accuracy|Good Accuracy|VPN Detected|Approximate)</);
  });

  it('corrects the place on /ip-2 too', async () => {
    const { context, page } = await visit('/ip-2');
    await page.getByTestId('verification-badge').waitFor();
    // The card hydrates when it comes into view (client:visible): a visitor scrolls to it.
    await page.getByTestId('verification-badge').scrollIntoViewIfNeeded();
    await hydrated(page);
    await page.getByRole('button', { name: 'Wrong city' }).click();
    await page.keyboard.type('köln');
    await page.getByRole('option').first().waitFor();
    await page.keyboard.press('ArrowDown');
    await page.keyboard.press('Enter');
    await expect(place(page)).resolves.toBe('Köln, North Rhine-Westphalia, GermanyCorrected by you');
    await context.close();
  });

  it('has no axe violations in view mode and in search mode with results', async () => {
    const { context, page } = await visit();
    await page.getByRole('tab', { name: 'Verification' }).click();
    const scan = async (label: string) => (await new AxeBuilder({ page }).include('#panel-verification').analyze()).violations
      .map((v) => `${label}: ${v.id} ${v.help} ${v.nodes.map((n) => n.target.join(' ')).join(' | ')}`);
    const failures = await scan('view');
    await page.getByRole('button', { name: 'Correct Location' }).click();
    await page.keyboard.type('san');
    await page.getByRole('option').first().waitFor();
    await page.keyboard.press('ArrowDown');
    failures.push(...await scan('search'));
    await page.keyboard.press('Escape');
    await page.getByRole('button', { name: 'VPN location shown' }).click();
    await page.keyboard.type('sa');
    failures.push(...await scan('search hint'));
    expect(failures).toEqual([]);
    await context.close();
  });
});
