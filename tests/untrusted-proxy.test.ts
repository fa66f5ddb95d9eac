/**
 * A proxy in front of a server that was not told of it (TRUST_PROXY unset): every visitor
 * would appear as the proxy, so the first request from a private or loopback peer that
 * carries a forwarded header is said in one log line, naming the settings, and no more.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createTestApp } from './support/app-harness.ts';

afterEach(() => { vi.restoreAllMocks(); });

/** The log lines about TRUST_PROXY written while `run` ran. */
async function warnings(run: () => Promise<unknown>): Promise<string[]> {
  const warn = vi.spyOn(console, 'warn');
  await run();
  return warn.mock.calls.map((call) => String(call[0])).filter((line) => line.includes('TRUST_PROXY'));
}

describe('a forwarded header while TRUST_PROXY is unset', () => {
  it('is said once, naming the header and what to set, however many requests carry it', async () => {
    const app = await createTestApp({ TRUST_PROXY: '' });
    const lines = await warnings(async () => {
      for (const headers of [{ 'x-forwarded-for': '8.8.8.8' }, { forwarded: 'for=8.8.8.8' }, { 'x-real-ip': '8.8.8.8' }] as Array<Record<string, string>>) {
        expect((await app('/ip', { peer: '10.0.0.5', headers })).status).toBe(200);
      }
    });
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(/^TRUST_PROXY is not set, but a request from 10\.0\.0\.5, a private or loopback address, carries X-Forwarded-For: .*Set TRUST_PROXY=1 .*TRUST_PROXY_HEADER/);
  });

  it.each<[string, string, Record<string, string>, Record<string, string>]>([
    ['a public peer sending one (its own header, no proxy)', '8.8.8.8', { 'x-forwarded-for': '1.1.1.1' }, { TRUST_PROXY: '' }],
    ['a loopback peer sending none', '127.0.0.1', {}, { TRUST_PROXY: '' }],
    ['a trusted proxy', '127.0.0.1', { 'x-forwarded-for': '8.8.8.8' }, { TRUST_PROXY: 'loopback' }],
  ])('is not said for %s', async (_, peer, headers, env) => {
    const app = await createTestApp(env);
    expect(await warnings(() => app('/ip', { peer, headers }))).toEqual([]);
  });
});
