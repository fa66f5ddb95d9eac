/**
 * The WebRTC leak check against the server's own STUN responder (STUN_PORT), in a real
 * Chromium. The visitor's address comes through the trusted loopback proxy
 * (X-Forwarded-For); the address the STUN answer carries comes from tests/support/stun-relay.ts, which
 * plays the visitor's NAT, the one part of the path that cannot exist on this machine.
 */
import { afterEach, beforeAll, afterAll, expect, it } from 'vitest';
import type { Browser, BrowserContext } from 'playwright-core';
import { launchBrowser, startServer, type RunningServer } from '../support/browser-harness.ts';
import { freeUdpPort, startStunRelay, type StunRelay } from '../support/stun-relay.ts';

let browser: Browser;
let relay: StunRelay | undefined;
let server: RunningServer | undefined;
let context: BrowserContext | undefined;
beforeAll(async () => { browser = await launchBrowser(); });
afterAll(async () => { await browser?.close(); });
afterEach(async () => {
  await context?.close();
  await server?.stop();
  await relay?.close();
  server = relay = context = undefined;
});

/**
 * Opens `/` as `visitor`. With `mappedTo`, the browser asks the relay, whose answers say
 * `mappedTo`; without it, the browser uses its default: the server's responder itself.
 */
async function check(visitor: string, mappedTo?: string) {
  const stunPort = await freeUdpPort();
  relay = mappedTo ? await startStunRelay(stunPort, mappedTo) : undefined;
  server = await startServer({ TRUST_PROXY: 'loopback', STUN_PORT: String(stunPort), PUBLIC_STUN_URL: relay?.url ?? '' });
  context = await browser.newContext({ extraHTTPHeaders: { 'x-forwarded-for': visitor } });
  const page = await context.newPage();
  // Record which STUN server the page hands its peer connection (observed, not changed).
  await page.addInitScript(() => {
    const Native = window.RTCPeerConnection;
    const seen: string[] = [];
    (window as unknown as { stunUrls: string[] }).stunUrls = seen;
    window.RTCPeerConnection = class extends Native {
      constructor(config?: RTCConfiguration) {
        for (const server of config?.iceServers ?? []) seen.push(...[server.urls].flat());
        super(config);
      }
    };
  });
  const posted = page.waitForRequest((r) => r.url().endsWith('/api/lookup') && r.method() === 'POST', { timeout: 15_000 });
  await page.goto(`${server.url}/`);
  const body = JSON.parse((await posted).postData()!) as { webrtc: { candidates: string[] }; clientInfo: { timezone: string } };
  const status = page.getByTestId('webrtc-status');
  await status.filter({ hasText: /leak/i }).waitFor({ timeout: 15_000 });
  const stunUrls = await page.evaluate(() => (window as unknown as { stunUrls: string[] }).stunUrls);
  return { page, body, stunUrls, stunPort, status: (await status.textContent())! };
}

it('asks the server\'s own STUN responder by default, and finds no leak on a single-stack connection', async () => {
  const { page, body, stunUrls, stunPort, status } = await check('8.8.8.8');
  expect(stunUrls).toEqual([`stun:127.0.0.1:${stunPort}`]);
  expect(body.webrtc.candidates.length).toBeGreaterThan(0);
  expect(body.clientInfo.timezone).toBe(await page.evaluate(() => Intl.DateTimeFormat().resolvedOptions().timeZone));
  expect(status).toMatch(/^No leak/);
  expect(await page.getByTestId('webrtc-own').count()).toBe(0);
  await expect(page.getByTestId('vpn-verdict').textContent()).resolves.not.toContain('WebRTC IP leak detected');
});

it('shows the address the STUN answer carries when it is the page\'s own: no leak', async () => {
  const { body, status } = await check('8.8.8.8', '8.8.8.8');
  expect(relay!.answers()).toBeGreaterThan(0);
  expect(body.webrtc.candidates.some((c) => c.includes(' 8.8.8.8 ') && c.includes('typ srflx'))).toBe(true);
  expect(status).toMatch(/^No leak/);
});

it('reports a leak, and the VPN verdict takes it in, when WebRTC shows an address of another network', async () => {
  // The page came through Google's 8.8.8.8 (AS15169), the STUN answer says Cloudflare's 1.1.1.1 (AS13335).
  const { page, body, status } = await check('8.8.8.8', '1.1.1.1');
  expect(body.webrtc.candidates.some((c) => c.includes(' 1.1.1.1 '))).toBe(true);
  expect(status).toBe('Leak: WebRTC exposes 1.1.1.1, from a different network than the one this page came through.');
  // The card hydrates when it comes into view (client:visible): a visitor scrolls to it.
  await page.getByTestId('vpn-verdict').scrollIntoViewIfNeeded();
  await page.getByTestId('vpn-verdict').getByText('WebRTC IP leak detected').waitFor();
});

it('shows a dual-stack visitor\'s IPv4 address as theirs, not as a leak, when the page came over IPv6', async () => {
  // Comcast: 2601:1c0::1 and 73.1.2.3 are both AS7922 in the ASN data.
  const { page, body, status } = await check('2601:1c0::1', '73.1.2.3');
  expect(body.webrtc.candidates.some((c) => c.includes(' 73.1.2.3 '))).toBe(true);
  expect(status).toMatch(/^No leak/);
  await page.getByTestId('webrtc-own').getByText('Your IPv4 address is 73.1.2.3: WebRTC reached us over your other IP version, on the same network, so this is not a leak.').waitFor();
  expect(await page.getByTestId('ip').textContent()).toContain('2601:1c0::1');
  await expect(page.getByTestId('vpn-verdict').textContent()).resolves.not.toContain('WebRTC IP leak detected');
});
