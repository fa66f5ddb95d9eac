/** latestWins, and a store that uses it, against a stand-in fetch whose answers arrive out of order. */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { latestWins } from './api-fetch.ts';

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
