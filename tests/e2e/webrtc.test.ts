/**
 * The WebRTC leak check against a STUN responder on 127.0.0.1. The visitor is 8.8.8.8
 * (through the trusted loopback proxy); the responder reflects either the sender's own,
 * non-public address (no leak) or 8.8.4.4, a public address the server did not see (leak).
 */
import { afterEach, beforeAll, afterAll, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { launchBrowser, startServer, type RunningServer } from './harness.ts';
import { startStunResponder, type StunResponder } from './stun-responder.ts';

let browser: Browser;
let stun: StunResponder | undefined;
let server: RunningServer | undefined;
beforeAll(async () => { browser = await launchBrowser(); });
afterAll(async () => { await browser?.close(); });
afterEach(async () => { await server?.stop(); await stun?.close(); server = stun = undefined; });

async function check(reflect?: string) {
  stun = await startStunResponder({ reflect });
  server = await startServer({ TRUST_PROXY: 'loopback', PUBLIC_STUN_URL: stun.url });
  const context = await browser.newContext({ extraHTTPHeaders: { 'x-forwarded-for': '8.8.8.8' } });
  const page = await context.newPage();
  const posted = page.waitForRequest((r) => r.url().endsWith('/api/lookup') && r.method() === 'POST', { timeout: 15_000 });
  await page.goto(`${server.url}/`);
  const body = JSON.parse((await posted).postData()!);
  const status = page.getByTestId('webrtc-status');
  await status.filter({ hasText: /leak/i }).waitFor();
  return { context, page, body, status: (await status.textContent())!, stun };
}

it('reports no leak when WebRTC shows only the address the server sees', async () => {
  const { context, page, body, status, stun } = await check();
  expect(stun.requests()).toBeGreaterThan(0);
  expect(body.webrtc.candidates.length).toBeGreaterThan(0);
  expect(body.clientInfo.timezone).toBe(await page.evaluate(() => Intl.DateTimeFormat().resolvedOptions().timeZone));
  expect(status).toMatch(/^No leak/);
  await expect(page.getByTestId('vpn-verdict').textContent()).resolves.not.toContain('WebRTC IP leak detected');
  await context.close();
});

it('reports a leak, and the VPN verdict takes it in, when WebRTC shows another public address', async () => {
  const { context, page, body, status } = await check('8.8.4.4');
  expect(body.webrtc.candidates.some((c: string) => c.includes(' 8.8.4.4 '))).toBe(true);
  expect(status).toBe('Leak: WebRTC exposes 8.8.4.4, which differs from the address we see.');
  await page.getByTestId('vpn-verdict').getByText('WebRTC IP leak detected').waitFor();
  await context.close();
});
