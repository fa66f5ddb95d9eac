/**
 * `$hostnames`: host names the page asked `/hostname` for, by address. A page's record
 * comes without the name when the server had none cached (the first byte never waits for
 * DNS); the network card then asks for it once. `/hostname` is not recorded in analytics,
 * so filling the name in counts no second lookup.
 */
import { map } from 'nanostores';
import type { HostnameRecord } from '../lib/record.ts';
import { isHostnameRecord } from '../lib/answer-guards.ts';
import { fetchJson } from './api-fetch.ts';

export const $hostnames = map<Record<string, HostnameRecord | undefined>>({});

const asked = new Set<string>();

/** Asks `/hostname` for `ip`'s name, once per page; a failure leaves the name unknown ("None"). */
export async function ensureHostname(ip: string): Promise<void> {
  if (asked.has(ip)) return;
  asked.add(ip);
  const result = await fetchJson(`/hostname?ip=${encodeURIComponent(ip)}`, isHostnameRecord, { cache: 'no-store' });
  $hostnames.setKey(ip, result.ok ? result.data : { ip, hostname: null, hostname_confirmed: false });
}
