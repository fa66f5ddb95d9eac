/**
 * Every store that guards against stale answers, with two overlapping requests answered
 * out of order (tests/support/fetch-stub.ts): the newer request's answer is what the store
 * holds, whichever arrives last and whether each succeeded or failed. ($ipLookup has its
 * case in api-fetch.test.ts.)
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { answered, apiError, stubFetch, type HeldRequest } from '../../tests/support/fetch-stub.ts';
import { settle } from '../../tests/support/manual-clock.ts';
import { lookupResponse } from '../../tests/support/lookup-response.ts';

afterEach(() => { vi.unstubAllGlobals(); });

const period = (url: string) => new URL(url, 'http://localhost').searchParams.get('period');

describe('$analytics', () => {
  it.each([
    { name: 'the newer period is answered first', order: ['7d', '24h'] },
    { name: 'the newer period is answered last', order: ['24h', '7d'] },
  ])('shows the period asked last when $name', async ({ order }) => {
    const fetch = stubFetch();
    vi.resetModules();
    const { $analytics, loadAnalytics } = await import('./analytics.ts');
    const loads = [loadAnalytics('24h'), loadAnalytics('7d')];
    expect(fetch.requests.map((r) => period(r.url))).toEqual(['24h', '7d']);
    for (const p of order) fetch.requests.find((r) => period(r.url) === p)!.answer(apiError(500, 'internal', p));
    await Promise.all(loads);
    expect($analytics.get()).toEqual({ status: 'failed', period: '7d' });
  });
});

describe('$bulkLookup', () => {
  it.each([
    { name: 'the newer list is answered first', order: [1, 0] },
    { name: 'the newer list is answered last', order: [0, 1] },
  ])('shows the answer to the list sent last when $name', async ({ order }) => {
    const fetch = stubFetch();
    vi.resetModules();
    const { $bulkLookup, $bulkText, runBulkLookup } = await import('./bulk-lookup.ts');
    $bulkText.set('8.8.8.8');
    const older = runBulkLookup();
    $bulkText.set('1.1.1.1\n9.9.9.9');
    const newer = runBulkLookup();
    expect(fetch.requests.map((r) => JSON.parse(String(r.init?.body)))).toEqual([{ ips: ['8.8.8.8'] }, { ips: ['1.1.1.1', '9.9.9.9'] }]);
    for (const i of order) fetch.requests[i]!.answer(apiError(400, 'invalid_body', i === 0 ? 'older' : 'newer'));
    await Promise.all([older, newer]);
    expect($bulkLookup.get()).toEqual({ status: 'failed', failure: { kind: 'api', status: 400, code: 'invalid_body', message: 'newer' } });
  });
});

describe('$lookup', () => {
  async function freshLookup() {
    vi.stubGlobal('location', new URL('http://localhost/'));
    const fetch = stubFetch();
    vi.resetModules();
    return { fetch, ...(await import('./lookup.ts')) };
  }

  it.each([
    { name: 'an older success arriving after a newer failure is dropped', older: 'ok', newer: 'fail', order: ['newer', 'older'], expected: 'error' },
    { name: 'an older failure arriving after a newer success is dropped', older: 'fail', newer: 'ok', order: ['newer', 'older'], expected: 'newer' },
    { name: 'a newer success arriving last wins', older: 'ok', newer: 'ok', order: ['older', 'newer'], expected: 'newer' },
  ])('$name', async ({ older, newer, order, expected }) => {
    const { fetch, $lookup, refreshLookup } = await freshLookup();
    const runs = [refreshLookup(), refreshLookup()];
    const ips = { older: '192.0.2.1', newer: '192.0.2.2' };
    const outcome = { older, newer } as Record<string, string>;
    for (const which of order as ('older' | 'newer')[]) {
      const request = fetch.requests[which === 'older' ? 0 : 1]!;
      request.answer(outcome[which] === 'ok' ? Response.json(lookupResponse(ips[which])) : apiError(429, 'rate_limited', which));
      await runs[which === 'older' ? 0 : 1];
    }
    const state = $lookup.get();
    if (expected === 'error') expect(state).toMatchObject({ status: 'error', error: 'rate_limited: newer', data: null });
    else expect(state).toMatchObject({ status: 'loaded', error: null, data: { data: { ip: ips.newer } } });
  });

  it('drops a quiet update that a foreground refresh overtook', async () => {
    const { fetch, $lookup, refreshLookup, updateLookupQuietly, seedLookup } = await freshLookup();
    seedLookup(lookupResponse('192.0.2.1'));
    const quiet = updateLookupQuietly();
    const held = await fetch.request(() => true);
    expect(new Headers(held.init?.headers).get('x-lookup-update')).toBe('1');
    const refresh = refreshLookup();
    fetch.requests[1]!.answer(Response.json(lookupResponse('192.0.2.3')));
    await refresh;
    held.answer(Response.json(lookupResponse('192.0.2.2')));
    await quiet;
    expect($lookup.get()).toMatchObject({ status: 'loaded', data: { data: { ip: '192.0.2.3' } } });
  });

  it('starts a quiet update at once when no foreground refresh is under way, before or after one', async () => {
    const { fetch, refreshLookup, updateLookupQuietly } = await freshLookup();
    void updateLookupQuietly();
    expect(fetch.requests).toHaveLength(1);
    const refresh = refreshLookup();
    fetch.requests[1]!.answer(Response.json(lookupResponse('192.0.2.1')));
    await refresh;
    void updateLookupQuietly();
    expect(fetch.requests).toHaveLength(3);
  });

  it('waits for the newer of two foreground refreshes when the older one ends first', async () => {
    const { fetch, $lookup, refreshLookup, updateLookupQuietly } = await freshLookup();
    const older = refreshLookup();
    const newer = refreshLookup();
    fetch.requests[0]!.answer(Response.json(lookupResponse('192.0.2.1')));
    await older;
    const quiet = updateLookupQuietly();
    expect(fetch.requests).toHaveLength(2);
    fetch.requests[1]!.answer(Response.json(lookupResponse('192.0.2.2')));
    await newer;
    const third = await vi.waitFor(() => fetch.requests[2] ?? Promise.reject(new Error('not yet')));
    third.answer(Response.json(lookupResponse('192.0.2.3')));
    await quiet;
    expect($lookup.get()).toMatchObject({ status: 'loaded', data: { data: { ip: '192.0.2.3' } } });
  });

  it('starts a quiet update only once the foreground refresh under way has ended', async () => {
    const { fetch, $lookup, refreshLookup, updateLookupQuietly } = await freshLookup();
    const refresh = refreshLookup();
    const quiet = updateLookupQuietly();
    await fetch.request(() => true);
    expect(fetch.requests).toHaveLength(1);
    fetch.requests[0]!.answer(Response.json(lookupResponse('192.0.2.1')));
    await refresh;
    const second = await vi.waitFor(() => fetch.requests[1] ?? Promise.reject(new Error('not yet')));
    expect(new Headers(second.init?.headers).get('x-lookup-update')).toBe('1');
    second.answer(Response.json(lookupResponse('192.0.2.2')));
    await quiet;
    expect($lookup.get()).toMatchObject({ status: 'loaded', data: { data: { ip: '192.0.2.2' } } });
  });

  it.each([
    { name: 'the API refuses it', end: (r: HeldRequest) => r.answer(apiError(503, 'unavailable', 'x')) },
    { name: 'the network fails', end: (r: HeldRequest) => r.fail() },
    { name: 'the answer is not a record', end: (r: HeldRequest) => r.answer(Response.json({ nope: 1 })) },
  ])('keeps the record and shows no error when a quiet update fails: $name', async ({ end }) => {
    const { fetch, $lookup, updateLookupQuietly, seedLookup } = await freshLookup();
    seedLookup(lookupResponse('192.0.2.1'));
    const before = $lookup.get();
    const quiet = updateLookupQuietly();
    expect($lookup.get()).toBe(before);
    end(await fetch.request(() => true));
    await quiet;
    expect($lookup.get()).toBe(before);
  });
});

describe('$verification', () => {
  const candidate = (city: string) => ({ city, region: 'Berlin', country: 'Germany', country_code: 'DE', latitude: 52.5, longitude: 13.4, confidence: 0.9, population: 1000 });
  const cities = (query: string, city: string) => Response.json({ query, count: 1, results: [candidate(city)] });
  const q = (url: string) => new URL(url, 'http://localhost').searchParams.get('q');

  it('shows the results of the query typed last when the earlier query is answered after it', async () => {
    const fetch = stubFetch();
    vi.resetModules();
    const { $verification, openSearch, setQuery } = await import('./verification.ts');
    openSearch();
    setQuery('berl');
    const older = await fetch.request((url) => q(url) === 'berl');
    setQuery('berli');
    const newer = await fetch.request((url) => q(url) === 'berli');
    newer.answer(cities('berli', 'Berlin'));
    await vi.waitFor(() => expect($verification.get().status).toBe('done'));
    const read = answered(older, cities('berl', 'Berleburg'));
    await read;
    await settle();
    expect($verification.get()).toMatchObject({ status: 'done', query: 'berli', results: [{ city: 'Berlin' }] });
  });
});
