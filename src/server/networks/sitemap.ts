/**
 * The sitemap of the largest networks' pages (sitemap-networks.xml, written by `npm run
 * build`): a few thousand of the 90,000 networks, the largest first, so search engines find
 * the pages people look for without crawling every small network; and the sitemap index
 * @astrojs/sitemap writes, with this file added to it.
 */
import { networkPath } from '../../lib/asn.ts';
import type { NetworkIndex } from './network-index.ts';

/** The file, beside sitemap-index.xml in the build's client folder. */
export const NETWORK_SITEMAP = 'sitemap-networks.xml';
/** How many networks it lists. */
export const SITEMAP_NETWORKS = 3000;

const escapeXml = (text: string) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

/** The sitemap of the `count` largest networks' pages on `site` (an origin). */
export function networkSitemap(index: NetworkIndex, site: string, count = SITEMAP_NETWORKS): string {
  const urls = index.largest(count).map((n) => `<url><loc>${escapeXml(new URL(networkPath(n.asn), site).href)}</loc></url>`);
  return `<?xml version="1.0" encoding="UTF-8"?><urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">${urls.join('')}</urlset>\n`;
}

/** A sitemap index with `url` added (once) to its sitemaps. Throws when the text is not a sitemap index. */
export function withSitemap(indexXml: string, url: string): string {
  const entry = `<sitemap><loc>${escapeXml(url)}</loc></sitemap>`;
  if (indexXml.includes(entry)) return indexXml;
  const end = indexXml.lastIndexOf('</sitemapindex>');
  if (end === -1) throw new Error('not a sitemap index: no </sitemapindex>');
  return indexXml.slice(0, end) + entry + indexXml.slice(end);
}
