import { describe, expect, it } from 'vitest';
import { NetworkIndex, searchText, type NetworkIndexData } from './network-index.ts';
import { networkSitemap, withSitemap } from './sitemap.ts';

/** An index of three networks with sizes only: what the sitemap reads. */
function index(): NetworkIndex {
  const asns = Uint32Array.of(1, 2, 3);
  const none = new Uint32Array(4);
  return new NetworkIndex({
    version: 'x', asns, nameIds: Uint32Array.of(0, 0, 0), names: ['N'], ...searchText(['n', 'n', 'n']),
    v4Addresses: Float64Array.of(10, 30, 20), v4Prefixes: new Uint32Array(3), v6Prefixes: new Uint32Array(3), v6Blocks: new Float64Array(3),
    placeUnit: new Uint8Array(3), placed: new Float64Array(3), ranges4Start: none, ranges4: new Uint32Array(0), ranges6Start: none,
    ranges6: new Uint32Array(0), countriesStart: none, countryIds: new Uint16Array(0), countryCounts: new Float64Array(0),
    citiesStart: none, cityIds: new Uint32Array(0), cityCounts: new Float64Array(0), bySize: Uint32Array.of(1, 2, 0), countries: [],
    cityNames: [], cityRegionIds: new Uint32Array(0), cityRegions: [], cityCountry: new Uint16Array(0), cityLatitude: new Float64Array(0), cityLongitude: new Float64Array(0),
  } satisfies NetworkIndexData);
}

describe('the networks sitemap', () => {
  it('lists the largest networks first, as many as asked, on the site origin', () => {
    const xml = networkSitemap(index(), 'https://example.test', 2);
    expect([...xml.matchAll(/<loc>([^<]+)<\/loc>/g)].map((m) => m[1])).toEqual(['https://example.test/AS2', 'https://example.test/AS3']);
    expect(xml).toMatch(/^<\?xml version="1.0" encoding="UTF-8"\?><urlset xmlns="http:\/\/www.sitemaps.org\/schemas\/sitemap\/0.9">/);
  });

  it('is added to the sitemap index once, after the sitemaps it has', () => {
    const before = '<?xml version="1.0" encoding="UTF-8"?><sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><sitemap><loc>https://example.test/sitemap-0.xml</loc></sitemap></sitemapindex>';
    const after = withSitemap(before, 'https://example.test/sitemap-networks.xml');
    expect([...after.matchAll(/<loc>([^<]+)<\/loc>/g)].map((m) => m[1])).toEqual(['https://example.test/sitemap-0.xml', 'https://example.test/sitemap-networks.xml']);
    expect(withSitemap(after, 'https://example.test/sitemap-networks.xml')).toBe(after);
    expect(() => withSitemap('<urlset></urlset>', 'https://example.test/x.xml')).toThrow(/not a sitemap index/);
  });
});
