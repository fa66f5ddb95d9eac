/**
 * `$familyLeak`: whether the IPv4/IPv6 check shows traffic going past the tunnel. The check
 * (src/stores/ip-families.ts) tells which address each family's echo URL saw; an address of
 * another network than the page's own is a leak, by WebRTC's rule (src/lib/webrtc-leak.ts,
 * sameNetwork: the visitor's other-family address on their own network is not one, and an
 * address whose network nobody can name is). The networks come from GET /api/lookup/{ip},
 * one request per echoed address other than the page's own.
 */
import { atom } from 'nanostores';
import { parseAsNumber } from '../lib/asn.ts';
import type { IpInfo } from '../lib/record.ts';
import { isLookupResponse } from '../lib/answer-guards.ts';
import { sameNetwork, type Network } from '../lib/webrtc-leak.ts';
import { fetchJson } from './api-fetch.ts';
import { $ipFamilies, startFamilyCheck, type FamilyCheck } from './ip-families.ts';

/** `unknown`: not started, or the settings not read yet; `unreadable`: they could not be read; null: no echo URL configured. */
export type FamilyLeak = { checking: boolean; leaks: number } | null | 'unknown' | 'unreadable';

/** What the check compares against: the address the page came from and its network. */
export type PageAddress = Pick<IpInfo, 'ip' | 'asn' | 'asn_org'>;

export const $familyLeak = atom<FamilyLeak>('unknown');

const networkOf = (info: Pick<IpInfo, 'asn' | 'asn_org'>): Network | null => {
  const asn = parseAsNumber(info.asn, true);
  return asn === undefined ? null : { asn, org: info.asn_org };
};

/** Whether an echoed address is of another network than the page's (its lookup failing counts: nothing shows it is theirs). */
async function leaks(ip: string, page: PageAddress): Promise<boolean> {
  if (ip === page.ip) return false;
  const answer = await fetchJson(`/api/lookup/${encodeURIComponent(ip)}`, isLookupResponse);
  return !sameNetwork(networkOf(page), answer.ok ? networkOf(answer.data.data) : null);
}

let started = false;

/** Starts the IPv4/IPv6 check (if not already) and follows it, against `page`; later calls do nothing. */
export function startFamilyLeakCheck(page: PageAddress | null): void {
  if (started) return;
  started = true;
  startFamilyCheck();
  const stop = $ipFamilies.subscribe((state) => {
    if (state.status === 'loading') return;
    if (state.status === 'config-failed') return $familyLeak.set('unreadable');
    const checks: FamilyCheck[] = [state.ipv4, state.ipv6];
    if (checks.every((c) => c.status === 'not-configured')) return $familyLeak.set(null);
    if (checks.some((c) => c.status === 'checking')) return $familyLeak.set({ checking: true, leaks: 0 });
    queueMicrotask(() => stop());
    const seen = checks.flatMap((c) => (c.status === 'seen' ? [c.ip] : []));
    void Promise.all(seen.map((ip) => (page ? leaks(ip, page) : false)))
      .then((found) => $familyLeak.set({ checking: false, leaks: found.filter(Boolean).length }));
  });
}
