/**
 * The islands' error, empty and unsupported states in a real Chromium against the built
 * server, each brought about the way a visitor meets it: a request the network drops or
 * the server refuses (Playwright routes), an answer the page cannot read, a browser
 * without WebRTC, a device that cannot find its position. The words are the content's
 * (content/site/), read here rather than copied.
 */
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, BrowserContextOptions, Page } from 'playwright-core';
import { AS_VISITOR, hydrated, launchBrowser, startServer, VISITOR } from '../support/browser-harness.ts';
import { sharedServer, type SharedServer } from '../support/e2e-fixture.ts';

type Copy = Record<string, string>;
/** The entry `id` of a content file. */
const content = <T>(file: string, id: string): T =>
  (JSON.parse(readFileSync(`content/site/${file}`, 'utf8')) as ({ id: string } & T)[]).find((entry) => entry.id === id)!;
const TOOLS = { lookup: content<Copy>('ip-tools.json', 'lookup'), bulk: content<Copy>('ip-tools.json', 'bulk') };
const TEXT = content<{ gps: Copy; webrtc: Copy }>('lookup-text.json', 'lookup');

let server: SharedServer;
let browser: Browser;
beforeAll(async () => { server = sharedServer(); browser = await launchBrowser(); });
afterAll(async () => { await browser?.close(); });

async function open(path: string, options: BrowserContextOptions = {}, beforeLoad?: (page: Page) => Promise<unknown>, base = server.url) {
  const context = await browser.newContext({ extraHTTPHeaders: AS_VISITOR, ...options });
  const page = await context.newPage();
  await beforeLoad?.(page);
  await page.goto(base + path);
  await hydrated(page);
  return { context, page };
}

/** A request the network drops. */
const dropped = (page: Page, url: string) => page.route(url, (route) => route.abort());
/** A 200 answer that is not JSON (a captive portal, a proxy's page). */
const unreadable = (page: Page, url: string) => page.route(url, (route) => route.fulfill({ status: 200, contentType: 'text/html', body: '<html>Sign in to the Wi-Fi</html>' }));

describe('/ip-3 look up any IP', () => {
  it.each([
    { name: 'says it could not reach the server when the request is dropped', fail: dropped, message: TOOLS.lookup.networkError! },
    { name: 'says the answer could not be read when it is not JSON', fail: unreadable, message: TOOLS.lookup.invalidResponse! },
  ])('$name', async ({ fail, message }) => {
    const { context, page } = await open('/ip-3');
    await fail(page, '**/api/lookup/**');
    await page.getByLabel(TOOLS.lookup.inputLabel!, { exact: true }).fill('8.8.8.8');
    await page.getByRole('button', { name: TOOLS.lookup.submit!, exact: true }).click();
    await expect(page.getByRole('alert').filter({ hasText: message }).textContent()).resolves.toBe(message);
    await expect(page.getByRole('button', { name: TOOLS.lookup.submit!, exact: true }).isEnabled()).resolves.toBe(true);
    await context.close();
  });
});

describe('/ip-3 bulk lookup', () => {
  async function submitList(page: Page) {
    await page.getByLabel(TOOLS.bulk.inputLabel!).fill('8.8.8.8\n1.1.1.1');
    await page.getByRole('button', { name: TOOLS.bulk.submit! }).click();
  }

  it.each([
    { name: 'says it could not reach the server when the request is dropped', fail: dropped, message: TOOLS.bulk.networkError! },
    { name: 'says the answer could not be read when it is not JSON', fail: unreadable, message: TOOLS.bulk.invalidResponse! },
    {
      name: "shows the API's own message when it refuses the list",
      fail: (page: Page, url: string) => page.route(url, (route) => route.fulfill({ status: 429, json: { error: { code: 'rate_limited', message: 'Too many requests: try again in 30 s.' } } })),
      message: 'Too many requests: try again in 30 s.',
    },
  ])('$name, and shows no table', async ({ fail, message }) => {
    const { context, page } = await open('/ip-3');
    await fail(page, '**/api/lookup/bulk');
    await submitList(page);
    await expect(page.getByRole('alert').filter({ hasText: message }).textContent()).resolves.toBe(message);
    await expect(page.getByRole('table').count()).resolves.toBe(0);
    await context.close();
  });

  it.each([
    { name: 'the request is dropped', fail: dropped, message: TOOLS.bulk.networkError! },
    {
      name: 'the server refuses it',
      fail: (page: Page, url: string) => page.route(url, (route) => route.fulfill({ status: 503, json: { error: { code: 'busy', message: 'The server is busy.' } } })),
      message: 'The server is busy.',
    },
  ])('keeps the table and says why when the CSV fails: $name', async ({ fail, message }) => {
    const { context, page } = await open('/ip-3', { acceptDownloads: true });
    await submitList(page);
    const table = page.getByRole('table');
    await table.waitFor();
    await fail(page, '**/api/lookup/bulk?format=csv');
    const downloads: string[] = [];
    page.on('download', (d) => downloads.push(d.suggestedFilename()));
    await page.getByRole('button', { name: TOOLS.bulk.download! }).click();
    const said = TOOLS.bulk.downloadFailed!.replace('{message}', message);
    await expect(page.getByRole('alert').filter({ hasText: said }).textContent()).resolves.toBe(said);
    await expect(page.getByRole('button', { name: TOOLS.bulk.download! }).isEnabled()).resolves.toBe(true);
    expect(await table.locator('tbody tr').count()).toBe(2);
    expect(downloads).toEqual([]);
    await context.close();
  });
});

describe('precise location', () => {
  /** A browser whose device answers every position request with GeolocationPositionError `code`. */
  const positionError = (code: number) => (page: Page) => page.addInitScript((errorCode) => {
    navigator.geolocation.getCurrentPosition = (_, fail) => {
      setTimeout(() => fail?.({ code: errorCode, message: 'test', PERMISSION_DENIED: 1, POSITION_UNAVAILABLE: 2, TIMEOUT: 3 } as GeolocationPositionError), 0);
    };
  }, code);

  it.each([
    { name: 'the device did not find a position in time', code: 3, message: TEXT.gps.timeout! },
    { name: 'the position could not be read', code: 2, message: TEXT.gps.failed! },
  ])('says so when $name, keeps the IP-based record and offers to try again', async ({ code, message }) => {
    const { context, page } = await open('/', {}, positionError(code));
    await page.getByRole('button', { name: TEXT.gps.enable! }).click();
    await page.getByRole('status').filter({ hasText: message }).waitFor();
    await expect(page.getByRole('button', { name: TEXT.gps.enable! }).isEnabled()).resolves.toBe(true);
    await expect(page.getByTestId('ip').textContent()).resolves.toBe(VISITOR);
    await context.close();
  });
});

describe('the WebRTC check', () => {
  const webrtcStatus = (page: Page) => page.getByRole('region', { name: 'WebRTC leak test' }).getByRole('status');

  it('says the browser has WebRTC turned off when it has no RTCPeerConnection, and asks nothing', async () => {
    const posts: string[] = [];
    const { context, page } = await open('/ip-3', {}, async (p) => {
      p.on('request', (r) => { if (r.method() === 'POST') posts.push(r.url()); });
      await p.addInitScript(() => { delete (window as { RTCPeerConnection?: unknown }).RTCPeerConnection; });
    });
    await webrtcStatus(page).filter({ hasText: TEXT.webrtc.unsupported! }).waitFor();
    expect(posts).toEqual([]);
    await context.close();
  });

  it('says the check cannot run when the server has no STUN server', async () => {
    const bare = await startServer({ TRUST_PROXY: 'loopback', STUN_PORT: '0', PUBLIC_STUN_URL: '' });
    try {
      const { context, page } = await open('/ip-3', {}, undefined, bare.url);
      await webrtcStatus(page).filter({ hasText: TEXT.webrtc.off! }).waitFor();
      await context.close();
    } finally {
      await bare.stop();
    }
  });

  it('stays quiet when its background lookup fails: no error, the record kept, the check unanswered', async () => {
    const { context, page } = await open('/', {}, async (p) => {
      await p.route('**/api/lookup', (route) => (route.request().headers()['x-lookup-update'] ? route.abort() : route.continue()));
    });
    await page.getByText(TEXT.webrtc.unchecked!).waitFor({ timeout: 15_000 });
    await expect(page.getByRole('alertdialog').count()).resolves.toBe(0);
    await expect(page.getByTestId('ip').textContent()).resolves.toBe(VISITOR);
    await context.close();
  });
});
