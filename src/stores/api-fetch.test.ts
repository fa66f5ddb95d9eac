/** latestWins, and a store that uses it, against a stand-in fetch whose answers arrive out of order. */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { atom } from 'nanostores';
import { latestRequest, latestWins } from './api-fetch.ts';

afterEach(() => { vi.unstubAllGlobals(); });

describe('latestWins', () => {
  it('makes every earlier ticket stale and keeps the newest current', () => {
    const requests = latestWins();
    const first = requests.next();
    expect(first()).toBe(true);
    const second = requests.next();
    expect([first(), second()]).toEqual([false, true]);
    requests.next();
    expect(second()).toBe(false);
  });

  it('keeps the tickets of separate stores apart', () => {
    const a = latestWins();
    const b = latestWins();
    const ticket = a.next();
    b.next();
    expect(ticket()).toBe(true);
  });
});

describe('latestRequest', () => {
  /** A request the test answers when it likes. */
  function deferred() {
    let answer!: (value: string) => void;
    const promise = new Promise<string>((resolve) => { answer = resolve; });
    return { request: () => promise, answer };
  }

  it('shows the loading state at once, then what the answer settles to', async () => {
    const $store = atom('idle');
    const run = latestRequest($store);
    const { request, answer } = deferred();
    const done = run('loading', request, (text) => `done: ${text}`);
    expect($store.get()).toBe('loading');
    answer('a');
    await done;
    expect($store.get()).toBe('done: a');
  });

  it('drops an older answer that arrives after a newer run began, in either order', async () => {
    const $store = atom('idle');
    const run = latestRequest($store);
    const first = deferred();
    const second = deferred();
    const one = run('loading 1', first.request, (text) => `done: ${text}`);
    const two = run('loading 2', second.request, (text) => `done: ${text}`);
    first.answer('old');
    await one;
    expect($store.get()).toBe('loading 2');
    second.answer('new');
    await two;
    expect($store.get()).toBe('done: new');
    const three = run('loading 3', () => Promise.resolve('newest'), (text) => `done: ${text}`);
    await three;
    expect($store.get()).toBe('done: newest');
  });

  it('keeps the runs of separate stores apart', async () => {
    const $a = atom('idle');
    const $b = atom('idle');
    const slow = deferred();
    const a = latestRequest($a)('loading', slow.request, (text) => text);
    await latestRequest($b)('loading', () => Promise.resolve('b'), (text) => text);
    slow.answer('a');
    await a;
    expect([$a.get(), $b.get()]).toEqual(['a', 'b']);
  });
});

describe('a store answered out of order ($ipLookup)', () => {
  it('shows the answer to the newer request, not the older one that arrived last', async () => {
    const pending = new Map<string, (res: Response) => void>();
    vi.stubGlobal('fetch', (url: string) => new Promise<Response>((resolve) => pending.set(url, resolve)));
    vi.resetModules();
    const { $ipLookup, lookupIp } = await import('./ip-lookup.ts');
    const older = lookupIp('192.0.2.1');
    const newer = lookupIp('192.0.2.2');
    const answer = (message: string) => Response.json({ error: { code: 'invalid_ip', message } }, { status: 400 });
    pending.get('/api/lookup/192.0.2.2')!(answer('newer'));
    await newer;
    pending.get('/api/lookup/192.0.2.1')!(answer('older'));
    await older;
    const state = $ipLookup.get();
    expect(state.status === 'failed' && [state.query, state.failure]).toEqual(['192.0.2.2', { kind: 'api', status: 400, code: 'invalid_ip', message: 'newer' }]);
  });
});
