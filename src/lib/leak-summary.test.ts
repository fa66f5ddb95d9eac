import { describe, expect, it } from 'vitest';
import type { DnsVerdictState } from './dns-leak-record.ts';
import { dnsLeakState, familyLeakState, webrtcLeakState, type LeakState } from './leak-summary.ts';

describe('webrtcLeakState', () => {
  it.each<[string, Parameters<typeof webrtcLeakState>[0], number | null, LeakState]>([
    ['not set up without a STUN server', 'off', null, 'not-set-up'],
    ['no leak from a browser without WebRTC', 'unsupported', null, 'no-leak'],
    ['testing while the probe runs, even with an older count', 'running', 1, 'testing'],
    ['not tested before the probe starts', 'idle', 0, 'not-tested'],
    ['not tested when the server could not classify', 'done', null, 'not-tested'],
    ['no leak with no address of another network', 'done', 0, 'no-leak'],
    ['a leak with exactly one address of another network', 'done', 1, 'leak'],
    ['a leak with several', 'done', 3, 'leak'],
  ])('%s', (_, status, leaks, expected) => {
    expect(webrtcLeakState(status, leaks)).toBe(expected);
  });
});

describe('dnsLeakState', () => {
  it.each<[string, string | null, Parameters<typeof dnsLeakState>[1], DnsVerdictState | null, LeakState]>([
    ['not set up without a zone, whatever the store says', null, 'done', 'leak', 'not-set-up'],
    ['not tested before the visitor starts it', 'dns.example.com', 'idle', null, 'not-tested'],
    ['testing while it runs', 'dns.example.com', 'running', null, 'testing'],
    ['not tested when it failed', 'dns.example.com', 'failed', null, 'not-tested'],
    ['not tested when it failed, even with a verdict of an earlier run', 'dns.example.com', 'failed', 'leak', 'not-tested'],
    ['not tested before a new run starts, even with a verdict of an earlier one', 'dns.example.com', 'idle', 'no_leak', 'not-tested'],
    ['not tested when done without a verdict', 'dns.example.com', 'done', null, 'not-tested'],
    ['no leak from the verdict no_leak', 'dns.example.com', 'done', 'no_leak', 'no-leak'],
    ['a leak from the verdict leak', 'dns.example.com', 'done', 'leak', 'leak'],
    ['not conclusive from the verdict not_conclusive', 'dns.example.com', 'done', 'not_conclusive', 'inconclusive'],
    ['not conclusive when no resolver asked in time (waiting)', 'dns.example.com', 'done', 'waiting', 'inconclusive'],
    ['an empty zone counts as a zone', '', 'idle', null, 'not-tested'],
  ])('%s', (_, zone, status, verdict, expected) => {
    expect(dnsLeakState(zone, status, verdict)).toBe(expected);
  });
});

describe('familyLeakState', () => {
  it.each<[string, boolean, Parameters<typeof familyLeakState>[1], LeakState]>([
    ['not tested when the settings cannot be read', false, { checking: false, leaks: 1 }, 'not-tested'],
    ['not set up without an echo URL', true, null, 'not-set-up'],
    ['testing while an echo URL is asked', true, { checking: true, leaks: 1 }, 'testing'],
    ['no leak when every echoed address is of the page\'s network', true, { checking: false, leaks: 0 }, 'no-leak'],
    ['a leak with exactly one address of another network', true, { checking: false, leaks: 1 }, 'leak'],
  ])('%s', (_, readable, families, expected) => {
    expect(familyLeakState(readable, families)).toBe(expected);
  });
});
