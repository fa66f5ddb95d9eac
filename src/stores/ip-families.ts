/**
 * `$ipFamilies`: the IPv4/IPv6 check. Takes the echo URLs from `$clientConfig` (GET
 * /api/config on prerendered pages), then asks each configured one (5 s at most) which
 * address it saw. When a family has none, it asks `/ip` which address this visit came
 * from (a plain-text field, not a recorded lookup), so that family's row can say what the
 * page does know. Runs once, when the island calls startFamilyCheck() in the browser.
 */
import { atom } from 'nanostores';
import { parseIp } from '../lib/ip-address.ts';
import { fetchText } from './api-fetch.ts';
import { $clientConfig, ensureClientConfig } from './client-config.ts';

/** How long one family's echo URL may take before it counts as not available. */
export const FAMILY_TIMEOUT_MS = 5000;

/** One family: not configured on this server, being asked, the address seen, or no answer. */
export type FamilyCheck =
  | { status: 'not-configured' }
  | { status: 'checking' }
  | { status: 'seen'; ip: string }
  | { status: 'unavailable' };

export type IpFamiliesState =
  | { status: 'loading' }
  | { status: 'config-failed' }
  /** `visit`: the address this visit came from, asked only when a family has no echo URL ('asking' meanwhile; null when not asked or unknown). */
  | { status: 'ready'; ipv4: FamilyCheck; ipv6: FamilyCheck; visit: ParsedVisit | 'asking' | null };

/** This visit's address and its IP version. */
export interface ParsedVisit { ip: string; version: 4 | 6 }

export const $ipFamilies = atom<IpFamiliesState>({ status: 'loading' });

/** Asks one echo URL; only an address of the expected family counts as seen over it. */
async function check(url: string, version: 4 | 6): Promise<FamilyCheck> {
  const answer = await fetchText(url, { headers: { accept: 'text/plain' }, signal: AbortSignal.timeout(FAMILY_TIMEOUT_MS) });
  const ip = answer.ok ? answer.data.trim() : '';
  return parseIp(ip)?.version === version ? { status: 'seen', ip } : { status: 'unavailable' };
}

/** The address this visit came from, as `/ip` on this origin answers it; null when it cannot be read. */
async function visitAddress(): Promise<ParsedVisit | null> {
  const answer = await fetchText('/ip', { headers: { accept: 'text/plain' }, signal: AbortSignal.timeout(FAMILY_TIMEOUT_MS) });
  const ip = answer.ok ? answer.data.trim() : '';
  const version = parseIp(ip)?.version;
  return version ? { ip, version } : null;
}

async function run(): Promise<void> {
  await ensureClientConfig();
  const config = $clientConfig.get();
  if (!config) return $ipFamilies.set({ status: 'config-failed' });
  const { ipv4Url, ipv6Url } = config;
  const pending: FamilyCheck = { status: 'checking' };
  const idle: FamilyCheck = { status: 'not-configured' };
  $ipFamilies.set({ status: 'ready', ipv4: ipv4Url ? pending : idle, ipv6: ipv6Url ? pending : idle, visit: ipv4Url && ipv6Url ? null : 'asking' });
  const update = (family: 'ipv4' | 'ipv6') => (result: FamilyCheck) => {
    const state = $ipFamilies.get();
    if (state.status === 'ready') $ipFamilies.set({ ...state, [family]: result });
  };
  await Promise.all([
    ipv4Url ? check(ipv4Url, 4).then(update('ipv4')) : undefined,
    ipv6Url ? check(ipv6Url, 6).then(update('ipv6')) : undefined,
    ipv4Url && ipv6Url ? undefined : visitAddress().then((visit) => {
      const state = $ipFamilies.get();
      if (state.status === 'ready') $ipFamilies.set({ ...state, visit });
    }),
  ]);
}

let started = false;

/** Starts the check; later calls do nothing. */
export function startFamilyCheck(): void {
  if (started) return;
  started = true;
  void run();
}
