/**
 * `$familyLeak`: whether the IPv4/IPv6 check shows traffic going past the tunnel. The check
 * (src/stores/ip-families.ts) tells which address each family's echo URL saw; an address of
 * another network than the page's own is a leak, by the same rule as WebRTC's
 * (src/lib/webrtc-leak.ts: the visitor's other-family address on their own network is not
 * one). The networks come from GET /api/lookup/{ip}, one request per echoed address.
 */
import { atom } from 'nanostores';
import { parseAsNumber } from '../lib/asn.ts';
import { formatIp, type ParsedIp } from '../lib/ip-address.ts';
import { LookupResponseSchema, type IpInfo } from '../lib/record.ts';
import { classifyWebrtc, webrtcLeaks, type Network } from '../lib/webrtc-leak.ts';
import { fetchJson } from './api-fetch.ts';
import { $ipFamilies, startFamilyCheck, type FamilyCheck } from './ip-families.ts';
import { $lookup } from './lookup.ts';

/** `unreadable`: the settings could not be read; null: no echo URL configured. */
export type FamilyLeak = { checking: boolean; leaks: number } | null | 'unreadable';

export const $familyLeak = atom<FamilyLeak>({ checking: true, leaks: 0 });

const networkOf = (info: IpInfo): Network | null => {
  const asn = parseAsNumber(info.asn, true);
  return asn === undefined ? null : { asn, org: info.asn_org };
};

/** The echoed addresses, each with its network (null when the lookup failed or knows none). */
async function networksOf(ips: string[]): Promise<Map<string, Network | null>> {
  const answers = await Promise.all(ips.map((ip) => fetchJson(`/api/lookup/${encodeURIComponent(ip)}`, LookupResponseSchema)));
  return new Map(ips.map((ip, i) => {
    const answer = answers[i]!;
    return [ip, answer.ok ? networkOf(answer.data.data) : null];
  }));
}

async function classify(seen: string[]): Promise<void> {
  const page = $lookup.get().data?.data;
  if (!page) return $familyLeak.set({ checking: false, leaks: 0 });
  const networks = await networksOf(seen.filter((ip) => ip !== page.ip));
  networks.set(page.ip, networkOf(page));
  const lookup = (ip: ParsedIp) => networks.get(formatIp(ip)) ?? null;
  $familyLeak.set({ checking: false, leaks: webrtcLeaks(classifyWebrtc(seen, page.ip, lookup)).length });
}

let started = false;

/** Starts the IPv4/IPv6 check (if not already) and follows it; later calls do nothing. */
export function startFamilyLeakCheck(): void {
  if (started) return;
  started = true;
  startFamilyCheck();
  const stop = $ipFamilies.subscribe((state) => {
    if (state.status === 'loading') return;
    if (state.status === 'config-failed') return $familyLeak.set('unreadable');
    const checks: FamilyCheck[] = [state.ipv4, state.ipv6];
    if (checks.every((c) => c.status === 'not-configured')) return $familyLeak.set(null);
    if (checks.some((c) => c.status === 'checking')) return;
    queueMicrotask(() => stop());
    void classify(checks.flatMap((c) => (c.status === 'seen' ? [c.ip] : [])));
  });
}
