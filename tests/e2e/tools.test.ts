/** /ip-3 (lookup, bulk lookup with CSV, the IPv4 and IPv6 rows) and /performance, in a real browser against the built server. */
import { readFile } from 'node:fs/promises';
import { createServer } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import AxeBuilder from '@axe-core/playwright';
import type { Browser, Page } from 'playwright-core';
import { downloadText, hydrated, launchBrowser, startServer } from '../support/browser-harness.ts';
import { sharedServer, type SharedServer } from '../support/e2e-fixture.ts';
import { freeUdpPort, startStunRelay } from '../support/stun-relay.ts';

let server: SharedServer;
let browser: Browser;
beforeAll(async () => { server = sharedServer(); browser = await launchBrowser(); });
afterAll(async () => { await browser?.close(); });

/** Opens a page and waits until every island on it has hydrated; collects CSP complaints and scripts. */
async function open(base: string, path: string): Promise<{ page: Page; csp: string[]; scripts: string[] }> {
  const page = await (await browser.newContext()).newPage();
  const csp: string[] = [];
  const scripts: string[] = [];
  page.on('console', (m) => { if (/Content Security Policy/i.test(m.text())) csp.push(m.text()); });
  page.on('request', (r) => { if (r.resourceType() === 'script') scripts.push(new URL(r.url()).pathname); });
  await page.goto(base + path);
  await hydrated(page);
  return { page, csp, scripts };
}

/** axe over the page as it is now (after an interaction has drawn results). */
async function axeViolations(page: Page): Promise<string[]> {
  const { violations } = await new AxeBuilder({ page }).analyze();
  return violations.map((v) => `${v.id} (${v.nodes.length}) ${v.help}`);
}

/** Splits CSV text into rows of fields (RFC 4180 quoting). */
function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let field = '';
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (quoted) {
      if (c === '"' && text[i + 1] === '"') { field += '"'; i++; } else if (c === '"') quoted = false; else field += c;
    } else if (c === '"') quoted = true;
    else if (c === ',') { row.push(field); field = ''; }
    else if (c === '\n' || c === '\r') {
      if (c === '\r' && text[i + 1] === '\n') i++;
      row.push(field); rows.push(row); row = []; field = '';
    } else field += c;
  }
  if (field !== '' || row.length) { row.push(field); rows.push(row); }
  return rows;
}

async function apiMessage(base: string, input: string): Promise<string> {
  const body = await (await fetch(`${base}/api/lookup/${encodeURIComponent(input)}`)).json() as { error: { message: string } };
  return body.error.message;
}

describe('/ip-3 look up any IP', () => {
  it('shows Google and AS15169 for 8.8.8.8', async () => {
    const { page, csp } = await open(server.url, '/ip-3');
    await page.getByLabel('IP address', { exact: true }).fill('8.8.8.8');
    await page.getByRole('button', { name: 'Look up', exact: true }).click();
    const card = page.getByRole('article', { name: 'Result for 8.8.8.8' });
    await card.waitFor();
    const text = await card.textContent();
    expect(text).toContain('AS15169');
    expect(text).toMatch(/google/i);
    expect(csp).toEqual([]);
    expect(await axeViolations(page)).toEqual([]);
    await page.context().close();
  });

  it("shows the API's message for an address that is not one", async () => {
    const { page } = await open(server.url, '/ip-3');
    await page.getByLabel('IP address', { exact: true }).fill('300.1.2.3');
    await page.getByRole('button', { name: 'Look up', exact: true }).click();
    const alert = page.getByRole('alert');
    await alert.waitFor();
    expect(await alert.textContent()).toBe(await apiMessage(server.url, '300.1.2.3'));
    expect(await page.getByRole('article').count()).toBe(0);
    await page.context().close();
  });

  it('looks up the address given as ?ip= on load', async () => {
    const { page } = await open(server.url, '/ip-3?ip=1.1.1.1');
    const card = page.getByRole('article', { name: 'Result for 1.1.1.1' });
    await card.waitFor();
    expect(await card.textContent()).toContain('AS13335');
    expect(await page.getByLabel('IP address', { exact: true }).inputValue()).toBe('1.1.1.1');
    await page.context().close();
  });
});

describe('/ip-3 bulk lookup', () => {
  it('shows one row per pasted entry, errors on the bad ones, and downloads the same rows as CSV', async () => {
    const { page } = await open(server.url, '/ip-3');
    await page.getByLabel('Addresses to look up').fill('8.8.8.8\n\nnot-an-ip\n1.1.1.1, 999.1.1.1\n8.8.8.8\n');
    await page.getByText('4 addresses ready to look up.').waitFor();
    await page.getByText('1 repeated entries removed.').waitFor();
    await page.getByRole('button', { name: 'Look up all' }).click();
    const table = page.getByRole('table', { name: 'Bulk lookup results, one row per address' });
    await table.waitFor();
    const rows = table.locator('tbody tr');
    expect(await rows.locator('th').allTextContents()).toEqual(['8.8.8.8', 'not-an-ip', '1.1.1.1', '999.1.1.1']);
    const cells = await rows.evaluateAll((trs) => trs.map((tr) => tr.textContent ?? ''));
    expect(cells[0]).toContain('AS15169');
    expect(cells[2]).toContain('AS13335');
    expect(cells[1]).toContain(`Error: ${await apiMessage(server.url, 'not-an-ip')}`);
    expect(cells[3]).toContain(`Error: ${await apiMessage(server.url, '999.1.1.1')}`);
    expect(await axeViolations(page)).toEqual([]);

    const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Download CSV' }).click()]);
    expect(download.suggestedFilename()).toBe('ip-bulk-lookup.csv');
    const csv = parseCsv(await downloadText(download));
    const header = csv[0]!;
    expect(header.join(',')).toBe('input,ip,country_code,country_name,region,city,latitude,longitude,timezone,asn,asn_org,network_type,vpn_detected,hostname,hostname_confirmed,error');
    const records = csv.slice(1).filter((r) => r.some((f) => f !== ''));
    expect(records.map((r) => r[0])).toEqual(['8.8.8.8', 'not-an-ip', '1.1.1.1', '999.1.1.1']);
    const col = (name: string) => header.indexOf(name);
    expect(records.map((r) => r[col('asn')])).toEqual(['AS15169', '', 'AS13335', '']);
    expect(records.map((r) => r[col('error')] !== '')).toEqual([false, true, false, true]);
    await page.context().close();
  });

  it('refuses more than 100 addresses before sending anything', async () => {
    const { page } = await open(server.url, '/ip-3');
    const posts: string[] = [];
    page.on('request', (r) => { if (r.method() === 'POST') posts.push(r.url()); });
    const list = Array.from({ length: 101 }, (_, i) => `10.0.0.${i}`).join('\n');
    await page.getByLabel('Addresses to look up').fill(list);
    await page.getByText('That is 101 addresses; one lookup takes at most 100.', { exact: false }).waitFor();
    expect(await page.getByRole('button', { name: 'Look up all' }).isDisabled()).toBe(true);
    expect(posts).toEqual([]);
    await page.context().close();
  });
});

describe('/ip-3 WebRTC leak test', () => {
  it('reports an address of another network that WebRTC exposes', async () => {
    // The server's own STUN responder, reached through a relay playing a NAT whose public address is 1.1.1.1.
    const stunPort = await freeUdpPort();
    const stun = await startStunRelay(stunPort, '1.1.1.1');
    const proxied = await startServer({ TRUST_PROXY: 'loopback', STUN_PORT: String(stunPort), PUBLIC_STUN_URL: stun.url });
    try {
      const context = await browser.newContext({ extraHTTPHeaders: { 'x-forwarded-for': '8.8.8.8' } });
      const page = await context.newPage();
      await page.goto(proxied.url + '/ip-3');
      const section = page.getByRole('region', { name: 'WebRTC leak test' });
      await section.getByText('Leak: WebRTC exposes 1.1.1.1, from a different network than the one this page came through.').waitFor({ timeout: 15_000 });
      expect(stun.answers()).toBeGreaterThan(0);
      await context.close();
    } finally {
      await proxied.stop();
      await stun.close();
    }
  });
});

describe('/ip-3 IPv4 and IPv6 rows', () => {
  it('without echo URLs, shows the address of this visit, says the other version was not tested and why, in words for visitors', async () => {
    const { page } = await open(server.url, '/ip-3');
    const section = page.getByRole('region', { name: 'IPv4 and IPv6' });
    // The WebRTC test has no STUN server here, so nothing shows the other version.
    await section.getByText('Not tested', { exact: true }).waitFor();
    expect(await section.locator('dl').textContent()).toBe('Over IPv4127.0.0.1 (this visit)Over IPv6Not tested');
    await section.getByText(/cannot test each version on its own/).waitFor();
    await expect(page.getByText('configured', { exact: false }).count()).resolves.toBe(0);
    await page.context().close();
  });

  it('without echo URLs, shows the other version\'s address the WebRTC test found on the visitor\'s own network', async () => {
    // A visit over IPv6 from Google's network, whose NAT (the relay) shows the WebRTC test an IPv4 address of the same network.
    const stunPort = await freeUdpPort();
    const stun = await startStunRelay(stunPort, '8.8.8.8');
    const proxied = await startServer({ TRUST_PROXY: 'loopback', STUN_PORT: String(stunPort), PUBLIC_STUN_URL: stun.url });
    try {
      const context = await browser.newContext({ extraHTTPHeaders: { 'x-forwarded-for': '2001:4860:4860::8888' } });
      const page = await context.newPage();
      await page.goto(proxied.url + '/ip-3');
      const section = page.getByRole('region', { name: 'IPv4 and IPv6' });
      await section.getByText('8.8.8.8 (found by the WebRTC test above, on your own network)').waitFor({ timeout: 15_000 });
      expect(await section.locator('dl').textContent())
        .toBe('Over IPv48.8.8.8 (found by the WebRTC test above, on your own network)Over IPv62001:4860:4860::8888 (this visit)');
      await context.close();
    } finally {
      await proxied.stop();
      await stun.close();
    }
  });

  it('shows the address seen over IPv4 when PUBLIC_IPV4_URL is set', async () => {
    const port = await freePort();
    const configured = await startServer({ PORT: String(port), PUBLIC_IPV4_URL: `http://127.0.0.1:${port}/ip` });
    try {
      const { page, csp } = await open(configured.url, '/ip-3');
      const section = page.getByRole('region', { name: 'IPv4 and IPv6' });
      await section.getByText('127.0.0.1', { exact: true }).waitFor();
      // The configured family is tested; the other says it is not.
      await section.getByText('Not tested', { exact: true }).waitFor();
      expect(await section.locator('dl').textContent()).toBe('Over IPv4127.0.0.1Over IPv6Not tested');
      expect(csp).toEqual([]);
      await page.context().close();
    } finally {
      await configured.stop();
    }
  });
});

describe('/performance', () => {
  it('starts with Measuring... and five placeholders, then shows live readings', async () => {
    const html = await (await fetch(server.url + '/performance')).text();
    expect(html).toContain('Measuring...');
    expect(html.match(/class="vital placeholder"/g)).toHaveLength(5);

    const { page, csp } = await open(server.url, '/performance');
    await page.getByText('Measuring...').waitFor({ state: 'detached', timeout: 10_000 });
    const values = await page.locator('[data-metric]').evaluateAll((items) =>
      items.map((li) => [li.getAttribute('data-metric'), li.querySelector('.vital-value')?.textContent ?? '']));
    expect(values.map(([name]) => name)).toEqual(['LCP', 'FCP', 'CLS', 'INP', 'TTFB']);
    const measured = values.filter(([, v]) => /^\d+ ms$|^\d+\.\d{3}$/.test(v!));
    expect(measured.length).toBeGreaterThanOrEqual(1);
    expect(await page.locator('.vital-rating').first().textContent()).toMatch(/^(Good|Needs improvement|Poor)$/);
    expect(csp).toEqual([]);
    expect(await axeViolations(page)).toEqual([]);
    await page.context().close();
  });

  it('shows only the benchmark figures recorded in content, and no marketing figures', async () => {
    const recorded = JSON.parse(await readFile('content/site/benchmarks.json', 'utf8')) as Array<{ name: string }>;
    const { page } = await open(server.url, '/performance');
    const text = await page.locator('main').textContent();
    if (recorded.length === 0) expect(text).toContain('No benchmark results recorded yet.');
    for (const row of recorded) expect(text).toContain(row.name);
    expect(text).not.toMatch(/95\+|99\.9%|under 200 ?ms/i);
    await page.getByRole('link', { name: 'Check my IP address' }).click();
    await page.waitForURL(server.url + '/');
    await page.context().close();
  });
});

describe('shipped JavaScript', () => {
  it('loads only the islands each page embeds', async () => {
    const tools = await open(server.url, '/ip-3');
    const perf = await open(server.url, '/performance');
    expect(tools.scripts.some((s) => /IpLookupTool/.test(s))).toBe(true);
    expect(tools.scripts.filter((s) => /WebVitalsPanel|leaflet/i.test(s))).toEqual([]);
    expect(perf.scripts.some((s) => /WebVitalsPanel/.test(s))).toBe(true);
    expect(perf.scripts.filter((s) => /IpLookupTool|BulkLookupTool|IpFamilyCheck|api-fetch|leaflet/i.test(s))).toEqual([]);
    await tools.page.context().close();
    await perf.page.context().close();
  });
});

/** A port nothing listens on right now, so the server can be told its own URL before it starts. */
function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer().listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as { port: number };
      probe.close(() => resolve(port));
    }).on('error', reject);
  });
}
