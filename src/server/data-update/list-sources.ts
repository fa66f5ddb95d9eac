/**
 * The public lists the server keeps fresh by itself (refresher.ts) and `npm run
 * data:update` fetches once: where each comes from (a setting each, for a mirror or a
 * test), its upstream format (list-formats.ts), which privacy list it feeds, how often it
 * is fetched and past what age /healthz calls it stale. Names, licences and links are
 * copy, in content/site/list-sources.json (typed by src/schemas/site-lists.ts), which
 * /trust shows too.
 */
import type { PrivacyFlag } from '../../lib/privacy.ts';
import copy from '../../../content/site/list-sources.json' with { type: 'json' };
import type { ListFormat } from './list-formats.ts';

const HOUR = 3_600_000;
const DAY = 24 * HOUR;

/** One list source: code and copy together. */
export interface ListSource {
  id: string;
  /** The privacy list it feeds. */
  into: PrivacyFlag;
  /** The environment setting that replaces its URL (a base URL where the source has several files). */
  setting: string;
  /** The default of that setting. */
  defaultUrl: string;
  /** The files to fetch, from the setting's value. */
  files: (url: string) => string[];
  format: ListFormat;
  /**
   * The widest range a version may hold, as [IPv4, IPv6] prefix lengths (list-bounds.ts):
   * what the upstream has published, with room to grow; a version past it is refused.
   */
  widest: readonly [number, number];
  /** How often it is fetched, and past what age it is stale. */
  everyMs: number;
  staleMs: number;
  /** In a sentence ("the Tor Project's exit list"), and the service its ranges belong to ('' for none). */
  name: string;
  service: string;
}

type Code = Pick<ListSource, 'id' | 'into' | 'setting' | 'defaultUrl' | 'format' | 'widest' | 'everyMs' | 'staleMs'> & { paths?: string[] };

// The widest ranges each kind of list has published (the August 2026 lists: Tor single
// addresses; Private Relay /24 and /34; X4BNet's VPN list /16 and /29; the clouds and
// X4BNet's datacenter list /9 and /24), with room to grow.
const SINGLE: readonly [number, number] = [32, 128];
const RELAY: readonly [number, number] = [16, 32];
const VPN: readonly [number, number] = [12, 24];
const HOSTING: readonly [number, number] = [8, 20];

const CODE: readonly Code[] = [
  { id: 'tor', into: 'tor', setting: 'TOR_EXIT_LIST_URL', defaultUrl: 'https://check.torproject.org/torbulkexitlist', format: 'plain', widest: SINGLE, everyMs: HOUR, staleMs: 6 * HOUR },
  { id: 'relay', into: 'relay', setting: 'PRIVATE_RELAY_URL', defaultUrl: 'https://mask-api.icloud.com/egress-ip-ranges.csv', format: 'relay-csv', widest: RELAY, everyMs: DAY, staleMs: 3 * DAY },
  {
    id: 'x4bnet-vpn', into: 'vpn', setting: 'X4BNET_LISTS_URL', defaultUrl: 'https://raw.githubusercontent.com/X4BNet/lists_vpn/main/output',
    paths: ['vpn/ipv4.txt', 'vpn/ipv6.txt'], format: 'plain', widest: VPN, everyMs: DAY, staleMs: 3 * DAY,
  },
  { id: 'aws', into: 'hosting', setting: 'AWS_IP_RANGES_URL', defaultUrl: 'https://ip-ranges.amazonaws.com/ip-ranges.json', format: 'aws-json', widest: HOSTING, everyMs: DAY, staleMs: 3 * DAY },
  { id: 'google-cloud', into: 'hosting', setting: 'GOOGLE_CLOUD_RANGES_URL', defaultUrl: 'https://www.gstatic.com/ipranges/cloud.json', format: 'google-json', widest: HOSTING, everyMs: DAY, staleMs: 3 * DAY },
  { id: 'oracle-cloud', into: 'hosting', setting: 'ORACLE_CLOUD_RANGES_URL', defaultUrl: 'https://docs.oracle.com/en-us/iaas/tools/public_ip_ranges.json', format: 'oracle-json', widest: HOSTING, everyMs: DAY, staleMs: 3 * DAY },
  { id: 'cloudflare', into: 'hosting', setting: 'CLOUDFLARE_IPS_URL', defaultUrl: 'https://www.cloudflare.com', paths: ['ips-v4', 'ips-v6'], format: 'plain', widest: HOSTING, everyMs: DAY, staleMs: 3 * DAY },
  { id: 'digitalocean', into: 'hosting', setting: 'DIGITALOCEAN_GEOFEED_URL', defaultUrl: 'https://digitalocean.com/geo/google.csv', format: 'geofeed', widest: HOSTING, everyMs: DAY, staleMs: 3 * DAY },
  {
    id: 'x4bnet-datacenter', into: 'hosting', setting: 'X4BNET_LISTS_URL', defaultUrl: 'https://raw.githubusercontent.com/X4BNet/lists_vpn/main/output',
    paths: ['datacenter/ipv4.txt', 'datacenter/ipv6.txt'], format: 'plain', widest: HOSTING, everyMs: DAY, staleMs: 3 * DAY,
  },
];

/** Every list source, in the order their lines are written into a privacy list (and asked: a named provider before X4BNet's unnamed datacenter ranges). */
export const LIST_SOURCES: readonly ListSource[] = CODE.map(({ paths, ...code }) => {
  const credit = copy.find((c) => c.id === code.id);
  if (!credit) throw new Error(`content/site/list-sources.json has no entry "${code.id}"`);
  return {
    ...code,
    files: (url: string) => (paths ? paths.map((p) => `${url.replace(/\/+$/, '')}/${p}`) : [url]),
    name: credit.name,
    service: ('service' in credit && credit.service) || '',
  };
});

/** The npm registry the data packages come from, and their schedule. */
export const PACKAGES_SOURCE = { setting: 'NPM_REGISTRY_URL', defaultUrl: 'https://registry.npmjs.org', everyMs: 7 * DAY, staleMs: 35 * DAY } as const;

/** Each source's URL: its setting's value, else its default. */
export function sourceUrls(env: NodeJS.ProcessEnv): Record<string, string> {
  const urls = Object.fromEntries(LIST_SOURCES.map((s) => [s.id, env[s.setting] || s.defaultUrl]));
  return { ...urls, registry: env[PACKAGES_SOURCE.setting] || PACKAGES_SOURCE.defaultUrl };
}
