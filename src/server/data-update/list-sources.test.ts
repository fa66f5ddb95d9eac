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
