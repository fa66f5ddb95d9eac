/** `$bulkLookup`'s requests and its CSV, and `$analytics`' request and `hasData`, against a stand-in fetch. */
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { Dashboard } from '../lib/analytics.ts';
import { stubFetch } from '../../tests/support/fetch-stub.ts';

afterEach(() => { vi.unstubAllGlobals(); });

async function bulk() {
  const fetch = stubFetch();
  vi.resetModules();
  return { fetch, ...(await import('./bulk-lookup.ts')) };
}

describe('the bulk lookup', () => {
  it.each([
    { name: 'nothing pasted', text: '', sent: false },
    { name: 'blank lines only', text: '\n \n', sent: false },
    { name: 'one address', text: '8.8.8.8', sent: true },
    { name: 'more than 100 addresses', text: Array.from({ length: 101 }, (_, i) => `10.0.0.${i}`).join('\n'), sent: false },
  ])('sends $name: $sent', async ({ text, sent }) => {
    const { fetch, $bulkText, $bulkLookup, runBulkLookup } = await bulk();
    $bulkText.set(text);
    void runBulkLookup();
    expect(fetch.requests).toHaveLength(sent ? 1 : 0);
    expect($bulkLookup.get().status).toBe(sent ? 'loading' : 'idle');
  });

  it('starts with nothing pasted, so a submit sends nothing', async () => {
    const { fetch, $bulkText, $bulkInput, runBulkLookup } = await bulk();
    expect([$bulkText.get(), $bulkInput.get().ips]).toEqual(['', []]);
    await runBulkLookup();
    expect(fetch.requests).toEqual([]);
  });

  it('posts the parsed list as JSON', async () => {
    const { fetch, $bulkText, runBulkLookup } = await bulk();
    $bulkText.set('8.8.8.8\n1.1.1.1');
    void runBulkLookup();
    const [r] = fetch.requests;
    expect([r!.url, r!.init?.method, new Headers(r!.init?.headers).get('content-type'), r!.init?.body])
      .toEqual(['/api/lookup/bulk', 'POST', 'application/json', '{"ips":["8.8.8.8","1.1.1.1"]}']);
  });

  it('asks for the CSV of the finished lookup\'s addresses, and for none before one', async () => {
    const { fetch, $bulkLookup, fetchBulkCsv } = await bulk();
    expect(await fetchBulkCsv()).toEqual({ ok: false, failure: { kind: 'invalid' } });
    expect(fetch.requests).toEqual([]);
    $bulkLookup.set({ status: 'done', ips: ['8.8.8.8'], response: { count: 0, results: [] } });
    const csv = fetchBulkCsv();
    const [r] = fetch.requests;
    const headers = new Headers(r!.init?.headers);
    expect([r!.url, r!.init?.method, headers.get('content-type'), headers.get('accept'), r!.init?.body])
      .toEqual(['/api/lookup/bulk?format=csv', 'POST', 'application/json', 'text/csv', '{"ips":["8.8.8.8"]}']);
    r!.answer(new Response('input,ip\n'));
    expect(await csv).toEqual({ ok: true, data: 'input,ip\n' });
  });
});

describe('the analytics tab', () => {
  it('asks for the period without the browser cache', async () => {
    const fetch = stubFetch();
    vi.resetModules();
    const { loadAnalytics, $analytics } = await import('./analytics.ts');
    void loadAnalytics('30d');
    expect($analytics.get()).toEqual({ status: 'loading', period: '30d' });
    expect(fetch.requests.map((r) => [r.url, r.init?.cache, new Headers(r.init?.headers).get('accept')])).toEqual([['/api/analytics?period=30d', 'no-store', 'application/json']]);
  });

  it.each([
    { name: 'no lookups and no corrections: nothing', lookups: 0, corrections: 0, has: false },
    { name: 'no figure and no corrections: nothing', lookups: null, corrections: 0, has: false },
    { name: 'one lookup', lookups: 1, corrections: 0, has: true },
    { name: 'one correction', lookups: 0, corrections: 1, has: true },
    { name: 'a correction without a lookup figure', lookups: null, corrections: 1, has: true },
  ])('hasData: $name', async ({ lookups, corrections, has }) => {
    // A fresh copy: hasData is made when the module loads.
    vi.resetModules();
    const { hasData } = await import('./analytics.ts');
    expect(hasData({ lookups: { value: lookups }, accuracy: { corrections } } as unknown as Dashboard)).toBe(has);
  });
});
