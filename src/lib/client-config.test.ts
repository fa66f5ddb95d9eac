import { describe, expect, it, vi } from 'vitest';
import { clientConfigFromEnv, stunUrlFor } from './client-config.ts';

describe('stunUrlFor', () => {
  it.each<[string, string | null, number | null, string, string | null]>([
    ['the built-in responder on the host the page came from', null, 3478, 'whatismyip.example', 'stun:whatismyip.example:3478'],
    ['an IPv4 literal host', null, 3478, '203.0.113.9', 'stun:203.0.113.9:3478'],
    ['an IPv6 literal host, bracketed as location.hostname gives it', null, 3478, '[2001:db8::1]', 'stun:[2001:db8::1]:3478'],
    ['the operator\'s STUN server wins over the built-in one', 'stun:stun.example.net:3478', 3478, 'whatismyip.example', 'stun:stun.example.net:3478'],
    ['the operator\'s STUN server with the responder off', 'stun:stun.example.net', null, 'whatismyip.example', 'stun:stun.example.net'],
    ['neither: the check does not run', null, null, 'whatismyip.example', null],
  ])('%s', (_, stunUrl, stunPort, hostname, expected) => {
    expect(stunUrlFor({ stunUrl, stunPort }, hostname)).toBe(expected);
  });

  it('takes no third-party STUN server by default', () => {
    expect(clientConfigFromEnv({}, 3478)).toMatchObject({ stunUrl: null, stunPort: 3478 });
    expect(clientConfigFromEnv({}, 0)).toMatchObject({ stunUrl: null, stunPort: null });
  });
});

describe('clientConfigFromEnv: map tiles', () => {
  it('shows OpenStreetMap tiles, credited, when the operator names none', async () => {
    // A fresh copy: the defaults are set when the module loads, and mutation testing counts
    // them as tested only by a test that loads it.
    vi.resetModules();
    const fresh = await import('./client-config.ts');
    expect(fresh.clientConfigFromEnv({}, 0)).toMatchObject({
      tileUrl: 'https://tile.openstreetmap.org/{z}/{x}/{y}.png',
      tileAttribution: '&copy; <a href="https://www.openstreetmap.org/copyright">OpenStreetMap</a> contributors',
    });
  });

  it('takes the operator\'s tiles and credit when set', () => {
    const env = { PUBLIC_TILE_URL: 'https://tiles.example/{z}/{x}/{y}.png', PUBLIC_TILE_ATTRIBUTION: '&copy; Example' };
    expect(clientConfigFromEnv(env, 0)).toMatchObject({ tileUrl: env.PUBLIC_TILE_URL, tileAttribution: env.PUBLIC_TILE_ATTRIBUTION });
  });
});
