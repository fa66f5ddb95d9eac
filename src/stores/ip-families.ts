/**
 * `$ipFamilies`: the IPv4/IPv6 check. Takes the echo URLs from `$clientConfig` (GET
 * /api/config on prerendered pages), then asks each configured one (5 s at most) which
 * address it saw. Runs once, when the island calls
 * startFamilyCheck() in the browser.
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
  | { status: 'ready'; ipv4: FamilyCheck; ipv6: FamilyCheck };

export const $ipFamilies = atom<IpFamiliesState>({ status: 'loading' });

/** Asks one echo URL; only an address of the expected family counts as seen over it. */
async function check(url: string, version: 4 | 6): Promise<FamilyCheck> {
  const answer = await fetchText(url, { headers: { accept: 'text/plain' }, signal: AbortSignal.timeout(FAMILY_TIMEOUT_MS) });
  const ip = answer.ok ? answer.data.trim() : '';
  return parseIp(ip)?.version === version ? { status: 'seen', ip } : { status: 'unavailable' };
}

async function run(): Promise<void> {
  await ensureClientConfig();
  const config = $clientConfig.get();
  if (!config) return $ipFamilies.set({ status: 'config-failed' });
  const { ipv4Url, ipv6Url } = config;
  const pending: FamilyCheck = { status: 'checking' };
  const idle: FamilyCheck = { status: 'not-configured' };
  $ipFamilies.set({ status: 'ready', ipv4: ipv4Url ? pending : idle, ipv6: ipv6Url ? pending : idle });
  const update = (family: 'ipv4' | 'ipv6') => (result: FamilyCheck) => {
    const state = $ipFamilies.get();
    if (state.status === 'ready') $ipFamilies.set({ ...state, [family]: result });
  };
  await Promise.all([
    ipv4Url ? check(ipv4Url, 4).then(update('ipv4')) : undefined,
    ipv6Url ? check(ipv6Url, 6).then(update('ipv6')) : undefined,
  ]);
}

let started = false;

/** Starts the check; later calls do nothing. */
export function startFamilyCheck(): void {
  if (started) return;
  started = true;
  void run();
}
