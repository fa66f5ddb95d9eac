/** $dnsLeak against a stand-in API on a fake clock: the polling, its window, each failure, overlapping runs, and the default name loader. */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { DnsLeakResult, DnsResolver } from '../lib/dns-leak-record.ts';
import { $dnsLeak, DNS_LEAK_POLL_MS, DNS_LEAK_REQUEST_MS, DNS_LEAK_WINDOW_MS, startDnsLeakTest } from './dns-leak.ts';

const TOKEN = 'a'.repeat(32);
const names = (token: string, n: number) => Array.from({ length: n }, (_, i) => `${token}-${i + 1}.dns.example.com`);
const started = (token = TOKEN, n = 6) => Response.json({ token, names: names(token, n), expires_in: 120 }, { status: 201 });

const RESOLVER: DnsResolver = {
  ip: '198.51.100.53', transports: ['udp'], ecs: null, dnssec_ok: true, queries: 2, first_seen: '2026-11-26T22:00:00.000Z',
  asn: 13335, as_name: 'Cloudflare, Inc.', operator: 'Cloudflare', country: 'DE', country_name: 'Germany', city: 'Frankfurt',
  network_type: 'datacenter',
  privacy: { vpn: false, proxy: false, tor: false, relay: false, hosting: true, service: null,
    reasons: { vpn: 'not listed', proxy: 'not listed', tor: 'not listed', relay: 'not listed', hosting: 'listed' } },
};
const result = (seen: number, total = 6, token = TOKEN): DnsLeakResult => ({
  token, names_total: total, names_seen: seen, resolvers: seen ? [RESOLVER] : [],
  verdict: seen ? { state: 'no_leak', text: 'Your DNS queries go to Cloudflare (AS13335) in Germany.' } : { state: 'waiting', text: 'Waiting.' },
});
const apiError = (status: number, code: string) => Response.json({ error: { code, message: `${code} message` } }, { status });

type Answer = Response | (() => Promise<Response>);
/** A stand-in fetch: POST answers `post`, each GET of the token the next of `polls` (the last repeated). */
function api(post: Answer, polls: Answer[]) {
  const calls: string[] = [];
  vi.stubGlobal('fetch', (url: string, init: RequestInit = {}) => {
    calls.push(`${init.method ?? 'GET'} ${url}`);
    const answer = init.method === 'POST' ? post : polls.length > 1 ? polls.shift()! : polls[0]!;
    return typeof answer === 'function' ? answer() : Promise.resolve(answer.clone());
  });
  return calls;
}

beforeEach(() => {
  vi.useFakeTimers();
  $dnsLeak.set({ status: 'idle' });
});
afterEach(() => {
  vi.useRealTimers();
  vi.unstubAllGlobals();
});

describe('startDnsLeakTest', () => {
  it('loads every name once, polls the token, and is done when every name was seen', async () => {
    const calls = api(started(), [Response.json(result(0)), Response.json(result(3)), Response.json(result(6))]);
    const loaded: string[] = [];
    const run = startDnsLeakTest({ load: async (name) => { loaded.push(name); } });
    await vi.advanceTimersByTimeAsync(DNS_LEAK_POLL_MS);
    expect($dnsLeak.get()).toEqual({ status: 'running', result: result(0) });
    await vi.advanceTimersByTimeAsync(DNS_LEAK_POLL_MS);
    expect($dnsLeak.get()).toEqual({ status: 'running', result: result(3) });
    await vi.advanceTimersByTimeAsync(DNS_LEAK_POLL_MS);
    await run;
    expect($dnsLeak.get()).toEqual({ status: 'done', result: result(6) });
    expect(loaded).toEqual(names(TOKEN, 6));
    expect(calls).toEqual(['POST /api/dns-leak', ...Array(3).fill(`GET /api/dns-leak/${TOKEN}`)]);
  });

  it('asks for the extended set with ?extended=1', async () => {
    const calls = api(started(TOKEN, 36), [Response.json(result(36, 36))]);
    const loaded: string[] = [];
    const run = startDnsLeakTest({ extended: true, load: async (name) => { loaded.push(name); } });
    await vi.advanceTimersByTimeAsync(DNS_LEAK_POLL_MS);
    await run;
    expect(calls[0]).toBe('POST /api/dns-leak?extended=1');
    expect(loaded).toHaveLength(36);
  });

  it('stops polling when the window closes, done with what was seen by then', async () => {
    const calls = api(started(), [Response.json(result(2))]);
    const run = startDnsLeakTest({ load: async () => {} });
    await vi.advanceTimersByTimeAsync(DNS_LEAK_WINDOW_MS - DNS_LEAK_POLL_MS);
    expect($dnsLeak.get().status).toBe('running');
    await vi.advanceTimersByTimeAsync(DNS_LEAK_POLL_MS);
    await run;
    expect($dnsLeak.get()).toEqual({ status: 'done', result: result(2) });
    expect(calls.filter((c) => c.startsWith('GET'))).toHaveLength(DNS_LEAK_WINDOW_MS / DNS_LEAK_POLL_MS);
  });

  it.each<[string, Answer, Answer, unknown]>([
    ['the API\'s error when the test is not set up (503)', apiError(503, 'dns_leak_off'), Response.json(result(6)),
      { kind: 'api', status: 503, code: 'dns_leak_off', message: 'dns_leak_off message' }],
    ['a network failure of the POST', () => Promise.reject(new TypeError('Failed to fetch')), Response.json(result(6)), { kind: 'network' }],
    ['a malformed start (a token that is not 32 hex digits)', Response.json({ token: 'x', names: ['a'], expires_in: 120 }, { status: 201 }),
      Response.json(result(6)), { kind: 'invalid' }],
    ['an expired token while polling (404)', started(), apiError(404, 'unknown_token'),
      { kind: 'api', status: 404, code: 'unknown_token', message: 'unknown_token message' }],
    ['a server error while polling (500)', started(), apiError(500, 'internal'),
      { kind: 'api', status: 500, code: 'internal', message: 'internal message' }],
    ['a malformed poll answer', started(), Response.json({ token: TOKEN }), { kind: 'invalid' }],
  ])('fails with %s', async (_, post, poll, failure) => {
    api(post, [poll]);
    const run = startDnsLeakTest({ load: async () => {} });
    await vi.advanceTimersByTimeAsync(DNS_LEAK_POLL_MS);
    await run;
    expect($dnsLeak.get()).toEqual({ status: 'failed', failure });
  });

  it('fails with a timeout when the API does not answer in time', async () => {
    vi.stubGlobal('fetch', (_url: string, init: RequestInit) => new Promise((_, reject) => {
      init.signal!.addEventListener('abort', () => reject(new DOMException('aborted', 'AbortError')));
    }));
    const run = startDnsLeakTest({ load: async () => {} });
    await vi.advanceTimersByTimeAsync(DNS_LEAK_REQUEST_MS - 1);
    expect($dnsLeak.get().status).toBe('running');
    await vi.advanceTimersByTimeAsync(1);
    await run;
    expect($dnsLeak.get()).toEqual({ status: 'failed', failure: { kind: 'timeout' } });
  });

  it('loads each name by default over https, without cookies, referrer or cache, under a deadline', async () => {
    const loads: Array<[string, RequestInit]> = [];
    const polls = api(started(), [Response.json(result(6))]);
    const apiFetch = globalThis.fetch;
    vi.stubGlobal('fetch', (url: string, init: RequestInit = {}) => {
      if (!url.startsWith('https://')) return apiFetch(url, init);
      loads.push([url, init]);
      return new Promise((_, reject) => init.signal!.addEventListener('abort', () => reject(new DOMException('aborted', 'AbortError'))));
    });
    const run = startDnsLeakTest();
    await vi.advanceTimersByTimeAsync(DNS_LEAK_POLL_MS);
    await run;
    expect($dnsLeak.get()).toEqual({ status: 'done', result: result(6) });
    expect(polls).toEqual(['POST /api/dns-leak', `GET /api/dns-leak/${TOKEN}`]);
    expect(loads.map(([url]) => url)).toEqual(names(TOKEN, 6).map((name) => `https://${name}/`));
    for (const [, init] of loads) {
      expect(init).toMatchObject({ mode: 'no-cors', credentials: 'omit', referrerPolicy: 'no-referrer', cache: 'no-store' });
      expect(init.signal!.aborted).toBe(false);
    }
    await vi.advanceTimersByTimeAsync(DNS_LEAK_REQUEST_MS - DNS_LEAK_POLL_MS);
    expect(loads.every(([, init]) => init.signal!.aborted)).toBe(true);
  });

  it('never aborts a request or a name load after it ended', async () => {
    api(started(), [Response.json(result(3)), Response.json(result(6))]);
    const apiFetch = globalThis.fetch;
    const signals: AbortSignal[] = [];
    vi.stubGlobal('fetch', (url: string, init: RequestInit = {}) => {
      signals.push(init.signal!);
      return url.startsWith('https://') ? Promise.resolve(new Response(null)) : apiFetch(url, init);
    });
    const run = startDnsLeakTest();
    await vi.advanceTimersByTimeAsync(2 * DNS_LEAK_POLL_MS);
    await run;
    expect($dnsLeak.get()).toEqual({ status: 'done', result: result(6) });
    expect(signals).toHaveLength(1 + 6 + 2);
    await vi.advanceTimersByTimeAsync(2 * DNS_LEAK_REQUEST_MS);
    expect(signals.filter((signal) => signal.aborted)).toEqual([]);
  });

  it('drops an older run\'s poll answer that arrives after a newer run started', async () => {
    let answerPoll: (res: Response) => void = () => {};
    const calls: string[] = [];
    vi.stubGlobal('fetch', (url: string, init: RequestInit = {}) => {
      calls.push(`${init.method ?? 'GET'} ${url}`);
      if (init.method === 'POST') return calls.length === 1 ? Promise.resolve(started()) : new Promise(() => {});
      return new Promise((resolve) => { answerPoll = resolve; });
    });
    void startDnsLeakTest({ load: async () => {} });
    await vi.advanceTimersByTimeAsync(DNS_LEAK_POLL_MS);
    expect(calls).toEqual(['POST /api/dns-leak', `GET /api/dns-leak/${TOKEN}`]);
    void startDnsLeakTest({ load: async () => {} });
    answerPoll(Response.json(result(6)));
    await vi.advanceTimersByTimeAsync(DNS_LEAK_POLL_MS);
    expect($dnsLeak.get()).toEqual({ status: 'running', result: null });
  });

  it('stops an older run between its polls once a newer run started: it asks nothing more', async () => {
    const calls: string[] = [];
    vi.stubGlobal('fetch', (url: string, init: RequestInit = {}) => {
      calls.push(`${init.method ?? 'GET'} ${url}`);
      if (init.method === 'POST') return calls.length === 1 ? Promise.resolve(started()) : new Promise(() => {});
      return Promise.resolve(Response.json(result(1)));
    });
    void startDnsLeakTest({ load: async () => {} });
    await vi.advanceTimersByTimeAsync(DNS_LEAK_POLL_MS);
    void startDnsLeakTest({ load: async () => {} });
    await vi.advanceTimersByTimeAsync(3 * DNS_LEAK_POLL_MS);
    expect(calls).toEqual(['POST /api/dns-leak', `GET /api/dns-leak/${TOKEN}`, 'POST /api/dns-leak']);
    expect($dnsLeak.get()).toEqual({ status: 'running', result: null });
  });

  it('shows the later of two overlapping runs when the earlier one is answered last', async () => {
    const later = 'b'.repeat(32);
    let answerEarlier: (res: Response) => void = () => {};
    const posts = [new Promise<Response>((resolve) => { answerEarlier = resolve; }), Promise.resolve(started(later))];
    vi.stubGlobal('fetch', (url: string, init: RequestInit = {}) => (init.method === 'POST' ? posts.shift()!
      : Promise.resolve(Response.json(url.endsWith(later) ? result(6, 6, later) : result(6)))));
    const loaded: string[] = [];
    const load = async (name: string) => { loaded.push(name); };
    const earlier = startDnsLeakTest({ load });
    const newer = startDnsLeakTest({ load });
    await vi.advanceTimersByTimeAsync(DNS_LEAK_POLL_MS);
    await newer;
    answerEarlier(started());
    await vi.advanceTimersByTimeAsync(DNS_LEAK_POLL_MS);
    await earlier;
    expect($dnsLeak.get()).toEqual({ status: 'done', result: result(6, 6, later) });
    expect(loaded).toEqual(names(later, 6));
  });
});
