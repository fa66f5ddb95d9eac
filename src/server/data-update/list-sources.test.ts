import { describe, expect, it, vi } from 'vitest';
import { LIST_SOURCES, PACKAGES_SOURCE, sourceUrls } from './list-sources.ts';

const source = (id: string) => LIST_SOURCES.find((s) => s.id === id)!;

describe('the files a source fetches, from its setting', () => {
  it.each<[string, string, string[]]>([
    ['tor', 'http://mirror.test/tor/list', ['http://mirror.test/tor/list']],
    ['tor', 'http://mirror.test/tor/', ['http://mirror.test/tor/']],
    ['x4bnet-vpn', 'http://mirror.test/lists', ['http://mirror.test/lists/vpn/ipv4.txt', 'http://mirror.test/lists/vpn/ipv6.txt']],
    ['x4bnet-vpn', 'http://mirror.test/lists/', ['http://mirror.test/lists/vpn/ipv4.txt', 'http://mirror.test/lists/vpn/ipv6.txt']],
    ['x4bnet-datacenter', 'http://mirror.test//lists///', ['http://mirror.test//lists/datacenter/ipv4.txt', 'http://mirror.test//lists/datacenter/ipv6.txt']],
    ['cloudflare', 'http://mirror.test', ['http://mirror.test/ips-v4', 'http://mirror.test/ips-v6']],
  ])('%s from %s', (id, url, files) => {
    expect(source(id).files(url)).toEqual(files);
  });
});

describe('sourceUrls: a setting replaces its default', () => {
  it('answers every default, and the registry, with no setting', () => {
    const urls = sourceUrls({});
    expect(urls).toEqual({ ...Object.fromEntries(LIST_SOURCES.map((s) => [s.id, s.defaultUrl])), registry: PACKAGES_SOURCE.defaultUrl });
    expect(urls.tor).toBe('https://check.torproject.org/torbulkexitlist');
    expect(urls.registry).toBe('https://registry.npmjs.org');
  });

  it('takes each set setting, and an empty one as unset', () => {
    const urls = sourceUrls({ TOR_EXIT_LIST_URL: 'http://127.0.0.1:1/tor', X4BNET_LISTS_URL: 'http://127.0.0.1:1/x4b', AWS_IP_RANGES_URL: '', NPM_REGISTRY_URL: 'http://127.0.0.1:1/npm' });
    expect(urls).toMatchObject({
      tor: 'http://127.0.0.1:1/tor',
      'x4bnet-vpn': 'http://127.0.0.1:1/x4b',
      'x4bnet-datacenter': 'http://127.0.0.1:1/x4b',
      aws: 'https://ip-ranges.amazonaws.com/ip-ranges.json',
      relay: 'https://mask-api.icloud.com/egress-ip-ranges.csv',
      registry: 'http://127.0.0.1:1/npm',
    });
  });
});

describe('the copy each source needs', () => {
  it('refuses to load without a source\'s entry in content/site/list-sources.json, naming it', async () => {
    vi.resetModules();
    vi.doMock('../../../content/site/list-sources.json', async (load) => ({
      default: ((await load()) as { default: Array<{ id: string }> }).default.filter((c) => c.id !== 'aws'),
    }));
    try {
      await expect(import('./list-sources.ts')).rejects.toThrow(new Error('content/site/list-sources.json has no entry "aws"'));
    } finally {
      vi.doUnmock('../../../content/site/list-sources.json');
      vi.resetModules();
    }
  });
});

describe('the sources, one by one', () => {
  const HOUR = 3_600_000;
  const DAY = 24 * HOUR;
  const X4B = 'https://raw.githubusercontent.com/X4BNet/lists_vpn/main/output';
  it('are each fetched from its default, in its format, on its schedule, for its list and service, in this order', async () => {
    // A fresh copy: the table is built when the module loads.
    vi.resetModules();
    const { LIST_SOURCES: fresh } = await import('./list-sources.ts');
    expect(fresh.map((s) => [s.id, s.into, s.setting, s.files(s.defaultUrl), s.format, s.everyMs, s.staleMs, s.service])).toEqual([
      ['tor', 'tor', 'TOR_EXIT_LIST_URL', ['https://check.torproject.org/torbulkexitlist'], 'plain', HOUR, 6 * HOUR, ''],
      ['relay', 'relay', 'PRIVATE_RELAY_URL', ['https://mask-api.icloud.com/egress-ip-ranges.csv'], 'relay-csv', DAY, 3 * DAY, ''],
      ['x4bnet-vpn', 'vpn', 'X4BNET_LISTS_URL', [`${X4B}/vpn/ipv4.txt`, `${X4B}/vpn/ipv6.txt`], 'plain', DAY, 3 * DAY, ''],
      ['aws', 'hosting', 'AWS_IP_RANGES_URL', ['https://ip-ranges.amazonaws.com/ip-ranges.json'], 'aws-json', DAY, 3 * DAY, 'AWS'],
      ['google-cloud', 'hosting', 'GOOGLE_CLOUD_RANGES_URL', ['https://www.gstatic.com/ipranges/cloud.json'], 'google-json', DAY, 3 * DAY, 'Google Cloud'],
      ['oracle-cloud', 'hosting', 'ORACLE_CLOUD_RANGES_URL', ['https://docs.oracle.com/en-us/iaas/tools/public_ip_ranges.json'], 'oracle-json', DAY, 3 * DAY, 'Oracle Cloud'],
      ['cloudflare', 'hosting', 'CLOUDFLARE_IPS_URL', ['https://www.cloudflare.com/ips-v4', 'https://www.cloudflare.com/ips-v6'], 'plain', DAY, 3 * DAY, 'Cloudflare'],
      ['digitalocean', 'hosting', 'DIGITALOCEAN_GEOFEED_URL', ['https://digitalocean.com/geo/google.csv'], 'geofeed', DAY, 3 * DAY, 'DigitalOcean'],
      ['x4bnet-datacenter', 'hosting', 'X4BNET_LISTS_URL', [`${X4B}/datacenter/ipv4.txt`, `${X4B}/datacenter/ipv6.txt`], 'plain', DAY, 3 * DAY, ''],
    ]);
    // Names are copy, each its own sentence.
    expect(new Set(fresh.map((s) => s.name)).size).toBe(fresh.length);
  });
});
