/**
 * The leak summary's rule: one state for each leak check (WebRTC, DNS, IPv4/IPv6) from
 * where that check stands.
 *
 * | check  | not set up          | not tested                              | testing    | no leak / leak                     | not conclusive                 |
 * |--------|---------------------|-----------------------------------------|------------|------------------------------------|--------------------------------|
 * | WebRTC | no STUN server      | not run yet; run, but not classified    | gathering  | any address of another network     | never                          |
 * | DNS    | no zone             | not run yet; failed                     | polling    | the server's verdict               | verdict `not_conclusive` or none seen |
 * | IPv6   | no echo URL (row hidden) | not run yet; settings unreadable   | asking     | an echoed address of another network | never                        |
 *
 * A browser without WebRTC cannot leak through it: no leak. A family whose echo URL did
 * not answer cannot carry traffic past the tunnel either: no leak.
 */
import type { DnsVerdictState } from './dns-leak-record.ts';

export const LEAK_STATES = ['no-leak', 'leak', 'not-tested', 'not-set-up', 'testing', 'inconclusive'] as const;
export type LeakState = (typeof LEAK_STATES)[number];

/** The WebRTC check: its status, and the number of leaks the server found (null: not classified). */
export function webrtcLeakState(status: 'idle' | 'running' | 'done' | 'unsupported' | 'off', leaks: number | null): LeakState {
  if (status === 'off') return 'not-set-up';
  if (status === 'unsupported') return 'no-leak';
  if (status === 'running') return 'testing';
  if (status === 'idle' || leaks === null) return 'not-tested';
  return leaks > 0 ? 'leak' : 'no-leak';
}

const DNS_VERDICT_STATE: Record<DnsVerdictState, LeakState> = {
  no_leak: 'no-leak',
  leak: 'leak',
  not_conclusive: 'inconclusive',
  // The window closed before any resolver asked: nothing to judge by.
  waiting: 'inconclusive',
};

/** The DNS leak test: whether the site has a zone for it, the run's status and, once done, the server's verdict. */
export function dnsLeakState(zone: string | null, status: 'idle' | 'running' | 'done' | 'failed', verdict: DnsVerdictState | null): LeakState {
  if (zone === null) return 'not-set-up';
  if (status === 'running') return 'testing';
  if (status !== 'done' || verdict === null) return 'not-tested';
  return DNS_VERDICT_STATE[verdict];
}

/**
 * The IPv4/IPv6 check: `families` is null when no echo URL is configured (or the settings
 * could not be read: `readable` false), else whether one is still being asked and how many
 * echoed addresses belong to another network than the page's.
 */
export function familyLeakState(readable: boolean, families: { checking: boolean; leaks: number } | null): LeakState {
  if (!readable) return 'not-tested';
  if (families === null) return 'not-set-up';
  if (families.checking) return 'testing';
  return families.leaks > 0 ? 'leak' : 'no-leak';
}
