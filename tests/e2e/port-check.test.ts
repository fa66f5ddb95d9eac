/**
 * "Is my port open?" on /ip-3 in Chromium against the built server: a typed port, a
 * one-click common port and a bad port each get a plain answer, axe-clean in the light and
 * the dark scheme. The browser is on loopback, so the server allows private callers
 * (PORT_CHECK_PRIVATE, as only tests do) and checks 127.0.0.1.
 */
import { createServer, type AddressInfo, type Server } from 'node:net';
import AxeBuilder from '@axe-core/playwright';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { hydrated, launchBrowser, startServer, type RunningServer } from '../support/browser-harness.ts';

let server: RunningServer;
let browser: Browser;
let listener: Server;
let open: number;
let closed: number;
beforeAll(async () => {
  const listen = () => new Promise<Server>((resolve) => { const s = createServer((c) => c.destroy()); s.listen(0, '127.0.0.1', () => resolve(s)); });
  listener = await listen();
  open = (listener.address() as AddressInfo).port;
  const freed = await listen();
  closed = (freed.address() as AddressInfo).port;
  await new Promise((resolve) => freed.close(resolve));
  [server, browser] = await Promise.all([startServer({ PORT_CHECK_PRIVATE: 'on', PORT_CHECK_RATE_LIMIT: '0' }), launchBrowser()]);
});
afterAll(async () => { await browser?.close(); await server?.stop(); listener?.close(); });

async function toolPage(colorScheme: 'light' | 'dark' = 'light'): Promise<Page> {
  const page = await (await browser.newContext({ colorScheme })).newPage();
  await page.goto(`${server.url}/ip-3`);
  await hydrated(page);
  return page;
}

const region = (page: Page) => page.getByRole('region', { name: 'Is my port open?' });

async function axeClean(page: Page): Promise<void> {
  const { violations } = await new AxeBuilder({ page }).include('#port').analyze();
  expect(violations.map((v) => `${v.id} (${v.nodes.length}) ${v.help}: ${v.nodes[0]?.target.join(' ')}`)).toEqual([]);
}

describe('Is my port open?', () => {
  it.each(['light', 'dark'] as const)('answers a typed port, open then closed, with what it means (%s scheme, axe clean)', async (scheme) => {
    const page = await toolPage(scheme);
    const tool = region(page);
    await tool.getByLabel('Port number (1-65535)').fill(String(open));
    await tool.getByRole('button', { name: 'Check port' }).click();
    await tool.getByText(`Port ${open} is open on 127.0.0.1.`).waitFor();
    await tool.getByText(/Something on your network accepts connections on port/).waitFor();
    await axeClean(page);
    await tool.getByLabel('Port number (1-65535)').fill(String(closed));
    await tool.getByLabel('Port number (1-65535)').press('Enter');
    await tool.getByText(`Port ${closed} is closed on 127.0.0.1.`).waitFor();
    await tool.getByText(/check the port forwarding on your router/).waitFor();
    await axeClean(page);
    await page.context().close();
  });

  it('checks a common port in one click and shows the server\'s words for a bad port', async () => {
    const page = await toolPage();
    const tool = region(page);
    await tool.getByRole('group', { name: 'Common ports' }).getByRole('button', { name: 'Plex (32400)' }).click();
    await tool.getByText(/^Port 32400 is (open|closed) on 127\.0\.0\.1\.$/).waitFor();
    await expect(tool.getByLabel('Port number (1-65535)').inputValue()).resolves.toBe('32400');
    await tool.getByLabel('Port number (1-65535)').fill('70000');
    await tool.getByRole('button', { name: 'Check port' }).click();
    await expect(tool.getByRole('alert').textContent()).resolves.toMatch(/"70000" is not a port/);
    await page.context().close();
  });
});
