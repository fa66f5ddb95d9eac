/**
 * The privacy lists end to end on the real databases: a Tor exit list, a Private Relay
 * CSV and a VPN list from files flag an address in the record and /json, a list that is
 * not there reads "not available", and a file that changes is reloaded without a restart
 * (the /json memo forgets what it knew), and /healthz's lines follow the files.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { IpInfoSchema } from '../src/lib/record.ts';
import { engineFrom, type Engine } from '../src/server/lookup/engine.ts';
import { defaultListPaths, PrivacyLists } from '../src/server/data/privacy-lists.ts';
import { openSources, type Sources } from '../src/server/data/sources.ts';
import { createTextEndpoints } from '../src/server/handlers/command-line-api.ts';
import type { AppRequest } from '../src/server/http/handler.ts';

const dir = mkdtempSync(path.join(tmpdir(), 'lists-'));
const paths = defaultListPaths(dir);
mkdirSync(path.dirname(paths.tor));
const TOR_EXIT = '185.220.101.1';
let sources: Sources;
let lists: PrivacyLists;
let engine: Engine;

/** Polls until `check` holds (the lists are polled every 50 ms here). */
function eventually(check: () => boolean, ms = 5000): Promise<void> {
  return vi.waitFor(() => { if (!check()) throw new Error('timed out waiting for the list to reload'); }, { timeout: ms, interval: 25 });
}

beforeAll(async () => {
  writeFileSync(paths.tor, `# Tor exits\n${TOR_EXIT}\n2a0b:f4c2::1\n`);
  writeFileSync(paths.relay, '172.224.224.0/27,GB,GB-EN,London,\n');
  writeFileSync(paths.vpn, '198.18.0.0/15,ExampleVPN\n45.83.220.0/22,ExampleVPN\n');
  // No proxy list, no hosting list: those checks are not available.
  rmSync(paths.proxy, { force: true });
  const opened = await openSources({ lists: paths, listPollMs: 50 });
  sources = opened.sources;
  lists = sources.lists!;
  engine = engineFrom(sources);
}, 60_000);
afterAll(() => {
  lists?.close();
  rmSync(dir, { recursive: true, force: true });
});

const get = (path: string): AppRequest => ({
  method: 'GET', path: path.split('?')[0]!, query: new URLSearchParams(path.split('?')[1] ?? ''),
  headers: { get: () => null }, clientIp: '127.0.0.1', clientAddress: undefined, body: async () => Buffer.alloc(0),
});

describe('privacy flags from lists', () => {
  it("flags a listed Tor exit as 'Tor exit', with the list's reason, and names the service", () => {
    const { data } = engine.lookup(TOR_EXIT);
    expect(data.privacy).toMatchObject({ tor: true, relay: false, vpn: false, proxy: null, service: 'Tor' });
    expect(data.privacy.reasons.tor).toMatch(/^Listed in the Tor Project's list of exit relays \(updated \d{4}-\d\d-\d\d\)/);
    expect(data.vpn.indicators).toContain('Tor exit');
    expect(data.vpn.reasons[data.vpn.indicators.indexOf('Tor exit')]).toBe(data.privacy.reasons.tor);
    expect(data.vpn_detected).toBe(true);
  });

  it('flags an IPv6 exit, a Private Relay egress and a listed VPN range with its name', () => {
    expect(engine.lookup('2a0b:f4c2::1').data.privacy.tor).toBe(true);
    expect(engine.lookup('172.224.224.31').data.privacy).toMatchObject({ relay: true, service: 'iCloud Private Relay' });
    expect(engine.lookup('172.224.224.32').data.privacy.relay).toBe(false);
    expect(engine.lookup('45.83.223.255').data.privacy).toMatchObject({ vpn: true, service: 'ExampleVPN' });
  });

  it('says which check was not available instead of implying clean', () => {
    const { data } = engine.lookup('8.8.8.8');
    expect(data.privacy).toMatchObject({ tor: false, relay: false, vpn: false, proxy: null, hosting: false });
    expect(data.privacy.reasons.proxy).toBe('Open proxy check not available: no list of open proxies is loaded.');
    expect(data.privacy.reasons.hosting).toMatch(/no list of hosting ranges is loaded/);
  });

  it('reloads a changed list without a restart, and /json forgets its memo', async () => {
    const text = createTextEndpoints(engine);
    await text(get(`/json?ip=${TOR_EXIT}`));
    await text(get(`/json?ip=${TOR_EXIT}`));
    const kept = (await text(get(`/json?ip=${TOR_EXIT}`)))!;
    expect(kept.headers?.['server-timing']).toMatch(/\(memo\)"$/);
    const before = IpInfoSchema.parse(JSON.parse(kept.body as string));
    expect(before.privacy.tor).toBe(true);
    const generation = engine.dataGeneration;
    writeFileSync(paths.tor, '185.220.101.2\n');
    await eventually(() => engine.dataGeneration > generation);
    expect(engine.lookup(TOR_EXIT).data.privacy.tor).toBe(false);
    expect(engine.lookup('185.220.101.2').data.privacy.tor).toBe(true);
    const after = IpInfoSchema.parse(JSON.parse(((await text(get(`/json?ip=${TOR_EXIT}`)))!.body as string)));
    expect(after.privacy.tor).toBe(false);
  });

  it('drops a list whose file is removed (its check becomes unavailable), and loads one that appears', async () => {
    let generation = engine.dataGeneration;
    rmSync(paths.relay);
    await eventually(() => engine.dataGeneration > generation);
    expect(engine.lookup('172.224.224.1').data.privacy.relay).toBeNull();
    generation = engine.dataGeneration;
    writeFileSync(paths.proxy, '91.108.4.0/22\n');
    await eventually(() => engine.dataGeneration > generation);
    expect(engine.lookup('91.108.4.1').data.privacy.proxy).toBe(true);
  });

  it("states each list's ranges and date, and which checks are not available, as the files change (what /healthz lists)", () => {
    const states = Object.fromEntries(lists.states());
    expect(states['tor list']).toMatch(/^ok \(1 ranges, file of \d{4}-\d\d-\d\d\)$/);
    expect(states['vpn list']).toMatch(/^ok \(2 ranges, /);
    expect(states['proxy list']).toMatch(/^ok \(1 ranges, /);
    expect(states['relay list']).toBe(`not loaded (no ${path.basename(paths.relay)}): its check says "not available"`);
    expect(states['hosting list']).toMatch(/^not loaded \(.*hosting\.txt\)/);
  });
});
