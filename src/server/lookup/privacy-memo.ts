/**
 * The privacy flags, their reason sentences and the VPN verdict of an address that no
 * privacy list holds, which is nearly every address: they depend then only on its network
 * (name, AS number) and on the lists' state and ages, so they are built once per network
 * and shared, frozen, by every record of it, instead of about 700 bytes of sentences per
 * lookup. Bounded, oldest network out first; emptied when a list changes (the lists'
 * generation) and at the moment a list's age in words would change ("fetched 12 minutes
 * ago": data-age.ts), so a shared answer is always the one a fresh build would give
 * (tests/json-differential.test.ts holds that over 100,000 addresses). An address a list
 * holds is judged afresh. One memo per engine: a swap of the databases starts a new one.
 */
import { ageTextUntil } from '../../lib/data-age.ts';
import { privacyOf, type ListCheck, type PrivacyEvidence } from '../../lib/privacy.ts';
import { UNKNOWN, type Privacy, type VpnResult } from '../../lib/record.ts';
import { judgeVpn, type VpnEvidence } from '../../lib/vpn-score.ts';
import { BoundedMap } from '../utils/bounded-map.ts';
import type { PrivacyLists } from '../data/privacy-lists.ts';

/** Networks whose verdicts are kept (a few hundred bytes each). */
export const PRIVACY_MEMO_SIZE = 8192;

/** What the lists answer when none is loaded. */
export const NO_LISTS: Readonly<Partial<Record<string, ListCheck>>> = Object.freeze({});

/** The time at which the first of the lists' ages in words changes (Infinity when none is worded by age). */
function wordsLastUntil(checks: Readonly<Partial<Record<string, ListCheck>>>, now: number): number {
  let until = Infinity;
  for (const kind in checks) {
    const { source, fetchedAt } = checks[kind]!;
    if (source && fetchedAt !== undefined) until = Math.min(until, fetchedAt + ageTextUntil(now - fetchedAt));
  }
  return until;
}

const freezePrivacy = (p: Privacy): Privacy => {
  Object.freeze(p.reasons);
  return Object.freeze(p);
};
const freezeVpn = (v: VpnResult): VpnResult => {
  Object.freeze(v.reasons);
  return Object.freeze(v);
};

export class PrivacyMemo {
  readonly #lists: PrivacyLists | undefined;
  /** Each network's shared flags and reasons. */
  readonly #shared: BoundedMap<number, Privacy>;
  /** The VPN verdict of each shared privacy object, for a request with no browser evidence. */
  #vpnOf = new WeakMap<Privacy, VpnResult>();
  #generation = -1;
  /** The span of time the kept verdicts' words hold for: from when they were first built until a list's age in words changes. */
  #from = Infinity;
  #until = -Infinity;

  constructor(lists: PrivacyLists | undefined, limit = PRIVACY_MEMO_SIZE) {
    this.#lists = lists;
    this.#shared = new BoundedMap(limit);
  }

  /** What the lists answer for an address that none of them holds (compare by identity with a `check`). */
  missed(): Readonly<Partial<Record<string, ListCheck>>> {
    return this.#lists ? this.#lists.missed() : NO_LISTS;
  }

  /**
   * The flags and reasons for `e`: shared when no list holds the address (`e.lists` is
   * `missed()`), else built afresh. `network` names the network: the same number for the
   * same org id (-1 for none) and the same `hostingNetwork` (the rest of the evidence
   * follows from them).
   */
  privacy(e: PrivacyEvidence & { now: number }, network: number): Privacy {
    if (e.lists !== this.missed()) return privacyOf(e);
    const generation = this.#lists?.generation ?? 0;
    // A clock set back counts too: the words of an earlier moment may be younger.
    if (generation !== this.#generation || e.now >= this.#until || e.now < this.#from) {
      this.#shared.clear();
      this.#vpnOf = new WeakMap();
      this.#generation = generation;
      this.#from = e.now;
      this.#until = wordsLastUntil(e.lists, e.now);
    }
    const key = (network + 1) * 3 + (e.hostingNetwork === 'asn' ? 1 : e.hostingNetwork === 'name' ? 2 : 0);
    let privacy = this.#shared.get(key);
    if (!privacy) {
      privacy = freezePrivacy(privacyOf(e));
      // Without the browser's timezone or a WebRTC leak the verdict follows from the flags alone.
      this.#vpnOf.set(privacy, freezeVpn(judgeVpn({ privacy, addressTimezone: UNKNOWN, browserTimezone: undefined, webrtcLeak: false })));
      this.#shared.set(key, privacy);
    }
    return privacy;
  }

  /** The VPN verdict: a shared privacy object's own when the browser told nothing, else judged afresh. */
  vpn(e: VpnEvidence): VpnResult {
    if (!e.browserTimezone && !e.webrtcLeak) {
      const shared = this.#vpnOf.get(e.privacy);
      if (shared) return shared;
    }
    return judgeVpn(e);
  }
}
