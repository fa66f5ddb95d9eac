/** `$verification` against a stand-in fetch and fake timers: modes, query states, the debounce, fallback, keys, choice, toast and undo. */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { apiError, stubFetch } from '../../tests/support/fetch-stub.ts';
import { lookupResponse } from '../../tests/support/lookup-response.ts';

afterEach(() => { vi.unstubAllGlobals(); vi.useRealTimers(); });

const candidate = (city: string) => ({ city, region: 'Bavaria', country: 'Germany', country_code: 'DE', latitude: 48.1, longitude: 11.6, confidence: 0.9, population: 1_500_000 });

async function fresh() {
  vi.useFakeTimers();
  const fetch = stubFetch();
  vi.resetModules();
  const verification = await import('./verification.ts');
  const { $lookup } = await import('./lookup.ts');
  const { $correction } = await import('./correction.ts');
  return { fetch, $lookup, $correction, ...verification };
}

/** Types `query` and lets the debounce run out; returns the request it made. */
async function search(v: Awaited<ReturnType<typeof fresh>>, query: string) {
  v.setQuery(query);
  await vi.advanceTimersByTimeAsync(v.DEBOUNCE_MS);
  return v.fetch.requests.at(-1)!;
}

describe('the query', () => {
  it('starts in view mode with nothing typed, found, chosen or undone', async () => {
    const v = await fresh();
    expect(v.$verification.get()).toEqual({ mode: 'view', query: '', status: 'empty', results: [], unverified: false, active: -1, toast: null, undone: false });
  });

  it('opening the search again forgets a query still waiting for its pause', async () => {
    const v = await fresh();
    v.openSearch();
    v.setQuery('munich');
    v.openSearch();
    await vi.advanceTimersByTimeAsync(v.DEBOUNCE_MS);
    expect(v.fetch.requests).toEqual([]);
    expect(v.$verification.get()).toMatchObject({ mode: 'search', query: '', status: 'empty' });
  });

  it.each([
    { query: '', status: 'empty' },
    { query: '   ', status: 'empty' },
    { query: 'mü', status: 'short' },
    { query: ' mü ', status: 'short' },
    { query: '😀😀', status: 'short' },
    { query: 'mün', status: 'searching' },
    { query: '😀😀😀', status: 'searching' },
  ])('"$query" is $status', async ({ query, status }) => {
    const v = await fresh();
    v.openSearch();
    v.setQuery(query);
    expect(v.$verification.get()).toMatchObject({ mode: 'search', query, status, results: [], unverified: false, active: -1 });
    await vi.advanceTimersByTimeAsync(v.DEBOUNCE_MS);
    expect(v.fetch.requests).toHaveLength(status === 'searching' ? 1 : 0);
  });

  it('asks the city search 250 ms after the last keystroke, with the trimmed query and the default limit', async () => {
    const v = await fresh();
    v.openSearch();
    v.setQuery('mun');
    await vi.advanceTimersByTimeAsync(200);
    v.setQuery(' munich ');
    await vi.advanceTimersByTimeAsync(v.DEBOUNCE_MS - 1);
    expect(v.fetch.requests).toEqual([]);
    await vi.advanceTimersByTimeAsync(1);
    expect(v.fetch.requests.map((r) => r.url)).toEqual(['/api/cities?q=munich&limit=5']);
    expect(v.DEBOUNCE_MS).toBe(250);
  });

  it('shows the results, none active', async () => {
    const v = await fresh();
    v.openSearch();
    (await search(v, 'munich')).answer(Response.json({ query: 'munich', count: 1, results: [candidate('Munich')] }));
    await vi.waitFor(() => expect(v.$verification.get().status).toBe('done'));
    expect(v.$verification.get()).toMatchObject({ results: [candidate('Munich')], unverified: false, active: -1 });
  });

  it.each([
    { name: 'the API refuses: the text before the comma', end: (r: { answer(res: Response): void; fail(): void }) => r.answer(apiError(503, 'cities_unavailable', 'down')), city: 'Springfield' },
    { name: 'the network fails: the whole text', end: (r: { answer(res: Response): void; fail(): void }) => r.fail(), city: 'Springfield, Illinois' },
  ])('offers what was typed, unverified, when the search fails: $name', async ({ end, city }) => {
    const v = await fresh();
    v.openSearch();
    end(await search(v, 'Springfield, Illinois'));
    await vi.waitFor(() => expect(v.$verification.get().status).toBe('done'));
    const state = v.$verification.get();
    expect(state.unverified).toBe(true);
    expect(state.results.map((r) => r.city)).toEqual([city]);
  });

  it('drops a search that closing the card overtook, and a pending one never starts', async () => {
    const v = await fresh();
    v.openSearch();
    const request = await search(v, 'munich');
    expect(request.init?.signal?.aborted).toBe(false);
    v.closeSearch();
    expect(request.init?.signal?.aborted).toBe(true);
    request.answer(Response.json({ query: 'munich', count: 1, results: [candidate('Munich')] }));
    v.openSearch();
    v.setQuery('berlin');
    v.closeSearch();
    await vi.advanceTimersByTimeAsync(1000);
    expect(v.fetch.requests).toHaveLength(1);
    expect(v.$verification.get()).toMatchObject({ mode: 'view', query: '', status: 'empty', results: [] });
  });
});

describe('keys, choice, toast and undo', () => {
  async function withResults(n: number) {
    const v = await fresh();
    v.$lookup.set({ status: 'loaded', data: lookupResponse('192.0.2.1'), error: null });
    v.openSearch();
    const results = Array.from({ length: n }, (_, i) => candidate(`City ${i}`));
    (await search(v, 'city')).answer(Response.json({ query: 'city', count: n, results }));
    await vi.waitFor(() => expect(v.$verification.get().status).toBe('done'));
    return { ...v, results };
  }

  it.each([
    { name: 'down from none to the first', moves: [1], active: 0 },
    { name: 'down twice', moves: [1, 1], active: 1 },
    { name: 'down past the last stays on it', moves: [1, 1, 1, 1], active: 2 },
    { name: 'up from none stays on the first', moves: [-1], active: 0 },
    { name: 'up past the first stays on it', moves: [1, 1, -1, -1, -1], active: 0 },
  ])('moves the active option $name', async ({ moves, active }) => {
    const v = await withResults(3);
    for (const delta of moves) v.moveActive(delta);
    expect(v.$verification.get().active).toBe(active);
  });

  it('moves nothing without results', async () => {
    const v = await fresh();
    v.openSearch();
    v.moveActive(1);
    expect(v.$verification.get().active).toBe(-1);
  });

  it('takes the option as the place, shows the toast for 3 s, and undo removes the place', async () => {
    const v = await withResults(2);
    v.choose(1);
    expect(v.$correction.get()).toMatchObject({ ip: '192.0.2.1', city: 'City 1', verified: true });
    expect(v.$verification.get()).toMatchObject({ mode: 'view', query: '', results: [], toast: v.results[1], undone: false });
    await vi.advanceTimersByTimeAsync(v.TOAST_MS - 1);
    expect(v.$verification.get().toast).toEqual(v.results[1]);
    await vi.advanceTimersByTimeAsync(1);
    expect(v.$verification.get().toast).toBeNull();
    expect(v.TOAST_MS).toBe(3000);
    v.undo();
    expect(v.$correction.get()).toBeNull();
    expect(v.$verification.get()).toMatchObject({ toast: null, undone: true });
  });

  it('a second choice restarts the toast; undo ends it at once', async () => {
    const v = await withResults(2);
    v.choose(0);
    await vi.advanceTimersByTimeAsync(2000);
    v.openSearch();
    (await search(v, 'city')).answer(Response.json({ query: 'city', count: 1, results: [candidate('Other')] }));
    await vi.waitFor(() => expect(v.$verification.get().status).toBe('done'));
    v.choose(0);
    await vi.advanceTimersByTimeAsync(2000);
    expect(v.$verification.get().toast?.city).toBe('Other');
    v.undo();
    await vi.advanceTimersByTimeAsync(5000);
    expect(v.$verification.get()).toMatchObject({ toast: null, undone: true });
    v.openSearch();
    expect(v.$verification.get()).toMatchObject({ mode: 'search', undone: false });
  });

  it('does nothing for an option that is not there, or before a record', async () => {
    const v = await withResults(1);
    v.choose(5);
    expect(v.$correction.get()).toBeNull();
    v.$lookup.set({ status: 'loading', data: null, error: null });
    v.choose(0);
    expect(v.$correction.get()).toBeNull();
    expect(v.$verification.get().mode).toBe('search');
  });

  it('marks a fallback choice unverified', async () => {
    const v = await fresh();
    v.$lookup.set({ status: 'loaded', data: lookupResponse('192.0.2.1'), error: null });
    v.openSearch();
    (await search(v, 'Springfield')).fail();
    await vi.waitFor(() => expect(v.$verification.get().status).toBe('done'));
    v.choose(0);
    expect(v.$correction.get()).toMatchObject({ city: 'Springfield', verified: false });
  });
});
