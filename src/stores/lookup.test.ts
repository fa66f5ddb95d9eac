/** `$lookup` against a stand-in fetch and Resource Timing: seeding, the first load, what each run sends, failures and the measured round trip. */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { apiError, stubFetch } from '../../tests/support/fetch-stub.ts';
import { lookupResponse } from '../../tests/support/lookup-response.ts';

afterEach(() => { vi.unstubAllGlobals(); vi.restoreAllMocks(); });

/** A page whose Resource Timing lists `entries` for the lookup URL (none by default). */
async function fresh(entries: () => object[] = () => []) {
  vi.stubGlobal('location', new URL('http://localhost/page'));
  vi.spyOn(performance, 'getEntriesByName').mockImplementation((name, type) =>
    (name === 'http://localhost/api/lookup' && type === 'resource' ? entries() : []) as PerformanceEntryList);
  const fetch = stubFetch();
  vi.resetModules();
  return { fetch, ...(await import('./lookup.ts')) };
}

const timing = (responseEnd: number, requestStart = 10, responseStart = 60, lookup = 5) =>
  ({ responseEnd, requestStart, responseStart, serverTiming: [{ name: 'lookup', duration: lookup }] });

describe('seedLookup and ensureLookup', () => {
  it('takes the page record when nothing is there, and asks nothing', async () => {
    const { $lookup, seedLookup, ensureLookup, fetch } = await fresh();
    seedLookup(lookupResponse('192.0.2.1'));
    expect($lookup.get()).toEqual({ status: 'loaded', data: lookupResponse('192.0.2.1'), error: null });
    seedLookup(lookupResponse('192.0.2.2'));
    expect($lookup.get().data?.data.ip).toBe('192.0.2.1');
    ensureLookup();
    expect(fetch.requests).toEqual([]);
  });

  it('loads with GET on a page without a record, once, and keeps the record the page then seeds out', async () => {
    const { $lookup, seedLookup, ensureLookup, fetch, LOOKUP_URL } = await fresh();
    ensureLookup();
    expect($lookup.get()).toEqual({ status: 'loading', data: null, error: null });
    ensureLookup();
    seedLookup(lookupResponse('192.0.2.9'));
    expect(fetch.requests.map((r) => [r.url, r.init?.method, r.init?.body, r.init?.cache])).toEqual([['http://localhost' + LOOKUP_URL, undefined, undefined, 'no-store']]);
    expect($lookup.get().status).toBe('loading');
  });
});

describe('what a run sends', () => {
  it('posts the browser\'s facts and the context; a foreground run is not marked as an update', async () => {
    const { refreshLookup, fetch, $lookupContext } = await fresh();
    $lookupContext.setKey('browserLocation', { lat: 1, lng: 2, accuracy: 3 });
    void refreshLookup();
    const [request] = fetch.requests;
    expect(request!.init?.method).toBe('POST');
    const headers = new Headers(request!.init?.headers);
    expect([headers.get('content-type'), headers.get('x-lookup-update')]).toEqual(['application/json', null]);
    expect(JSON.parse(String(request!.init?.body))).toEqual({
      clientInfo: { timezone: Intl.DateTimeFormat().resolvedOptions().timeZone, language: navigator.language, userAgent: navigator.userAgent },
      browserLocation: { lat: 1, lng: 2, accuracy: 3 },
    });
  });

  it('marks a quiet update as one', async () => {
    const { updateLookupQuietly, fetch } = await fresh();
    void updateLookupQuietly();
    const request = await fetch.request(() => true);
    const headers = new Headers(request.init?.headers);
    expect([request.init?.method, headers.get('content-type'), headers.get('x-lookup-update')]).toEqual(['POST', 'application/json', '1']);
  });
});

describe('a failed foreground run', () => {
  it.each([
    { name: "the API's code and message", end: (r: { answer(res: Response): void; fail(): void }) => r.answer(apiError(429, 'rate_limited', 'Slow down.')), error: 'rate_limited: Slow down.' },
    { name: 'the network', end: (r: { answer(res: Response): void; fail(): void }) => r.fail(), error: 'The lookup request did not reach the server.' },
    { name: 'an unreadable answer', end: (r: { answer(res: Response): void; fail(): void }) => r.answer(Response.json({ nope: true })), error: 'The lookup answer did not have the expected shape.' },
  ])('shows the error and keeps the record: $name', async ({ end, error }) => {
    const { $lookup, seedLookup, refreshLookup, fetch } = await fresh();
    seedLookup(lookupResponse('192.0.2.1'));
    const run = refreshLookup();
    expect($lookup.get()).toMatchObject({ status: 'loading', error: null, data: { data: { ip: '192.0.2.1' } } });
    end(fetch.requests[0]!);
    await run;
    expect($lookup.get()).toMatchObject({ status: 'error', error, data: { data: { ip: '192.0.2.1' } } });
  });
});

describe('the measured round trip', () => {
  it.each([
    { name: 'the newest entry of the lookup URL', entries: [timing(100, 0, 0, 0), timing(200, 10, 60, 5)], rtt: 45 },
    { name: 'the newest of three entries, not the second', entries: [timing(100, 0, 0, 0), timing(150, 0, 20, 0), timing(200, 10, 60, 5)], rtt: 45 },
    { name: 'no entry: the server\'s value', entries: [], rtt: 7 },
    { name: 'an entry not finished after five looks: the server\'s value', entries: [timing(0)], rtt: 7 },
  ])('is $name', async ({ entries, rtt }) => {
    let looks = 0;
    const { $lookup, refreshLookup, fetch } = await fresh(() => { looks++; return entries; });
    const run = refreshLookup();
    const record = lookupResponse('192.0.2.1');
    fetch.requests[0]!.answer(Response.json({ ...record, data: { ...record.data, rtt_ms: 7 } }));
    await run;
    expect($lookup.get().data?.data.rtt_ms).toBe(rtt);
    expect(looks).toBe(entries.length > 0 && entries.at(-1)!.responseEnd > 0 ? 1 : 5);
  });
});
