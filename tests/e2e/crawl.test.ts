/**
 * Crawls the built site from `/` and the sitemap: every internal link and asset answers
 * 200, every indexable page has unique search metadata and valid structured data, and
 * the sitemap lists exactly the indexable pages the crawl found. The networks' own sitemap
 * (sitemap-networks.xml, 3,000 of the 90,000 network pages) is crawled by a sample: every
 * network page has the same template, and its data's edge cases are tests/asn-api.test.ts's.
 */
import { existsSync } from 'node:fs';
import { beforeAll, describe, expect, it } from 'vitest';
import { isNetworkPage, sitemapPaths } from '../support/browser-harness.ts';
import { sharedServer, type SharedServer } from '../support/e2e-fixture.ts';
import { crawl, type Fetched } from '../support/crawler.ts';
import { structuredDataProblems } from '../support/structured-data.ts';

/** Unknown slugs under each content route: deliberate 404s (no page built, no redirect). */
const PROBES = ['/ip-lookup/atlantis', '/isp/no-such-isp', '/tool/no-such-tool', '/guide/no-such-guide',
  '/blog/no-such-post', '/ip-lookup', '/tool', '/blog/what-is-my-ip-address-complete-guide/extra', '/AS4294967295'];
/** How many of the networks' sitemap are crawled: its first (the largest) and a spread of the rest. */
const NETWORK_SAMPLE = 30;
/** Pages other branches build; until merged they are absent from this build and may 404, never after. */
// (/ip-2 is rendered per request, like /, so it has no file to look for.)
const ELSEWHERE = ['/ip-3', '/ip-4', '/performance'].filter((p) => !existsSync(`dist/client${p}.html`));

/** JSON-LD types each kind of page must carry. */
const REQUIRED_TYPES: Array<[RegExp, string[]]> = [
  [/^\/tool\/[^/]+$/, ['SoftwareApplication', 'BreadcrumbList']],
  [/^\/blog\/[^/]+$/, ['Article', 'BreadcrumbList']],
  [/^\/guide\/[^/]+$/, ['HowTo', 'BreadcrumbList']],
  [/^\/(?:ip-lookup|isp)\/[^/]+$/, ['WebPage', 'BreadcrumbList']],
  [/^\/(?:tools|cities|isps|guides|blog|networks)$/, ['CollectionPage', 'BreadcrumbList']],
  [/^\/AS\d+$/, ['WebPage', 'Organization', 'BreadcrumbList']],
  [/^\/seo-insights$/, ['HowTo', 'FAQPage']],
  [/^\/trust$/, ['AboutPage']],
  [/^\/international$/, ['WebPage']],
];

let server: SharedServer;
let pages: Map<string, Fetched>;
/** Indexable pages reachable by links from `/` alone. */
let linkedFromHome: string[];
let sitemap: string[];
/** The networks' sitemap, apart: it lists the largest networks, not every page a link reaches. */
let networkSitemap: string[];
beforeAll(async () => {
  server = sharedServer();
  const all = await sitemapPaths(server.url);
  sitemap = all.filter((p) => !isNetworkPage(p));
  networkSitemap = all.filter((p) => isNetworkPage(p));
  pages = await crawl(server.url, ['/']);
  linkedFromHome = indexable().map((p) => p.path);
  const sample = networkSitemap.filter((_, i) => i % Math.ceil(networkSitemap.length / NETWORK_SAMPLE) === 0);
  await crawl(server.url, [...sitemap, ...sample, ...PROBES], pages);
}, 120_000);

const indexable = () => [...pages.values()].filter((p) => p.status === 200 && p.meta && !p.meta.noindex);

describe('the crawled site', () => {
  it('answers 200 for every internal link and asset, and 404 only for the deliberate probes', () => {
    expect(pages.size).toBeGreaterThan(60);
    const bad = [...pages.values()].filter((p) => p.status !== 200 && !ELSEWHERE.includes(p.path))
      .map((p) => `${p.status} ${p.path}`);
    expect(bad.sort()).toEqual(PROBES.map((p) => `404 ${p}`).sort());
  });

  it('finds the element every #fragment link points to', () => {
    const missing: string[] = [];
    for (const page of pages.values()) {
      for (const ref of page.refs.filter((r) => r.includes('#'))) {
        const [path, id] = ref.split('#') as [string, string];
        const target = pages.get(path || page.path);
        if (id && target?.status === 200 && !target.ids.has(decodeURIComponent(id))) missing.push(`${page.path} → ${ref}`);
      }
    }
    expect(missing).toEqual([]);
  });

  it('gives every indexable page a title, description, canonical URL, Open Graph and Twitter card', () => {
    const problems: string[] = [];
    for (const { path, meta } of indexable()) {
      const m = meta!;
      if (!m.title) problems.push(`${path}: title`);
      if (!m.description || m.description.length < 50) problems.push(`${path}: description`);
      if (!m.canonical || new URL(m.canonical).pathname !== path) problems.push(`${path}: canonical ${m.canonical}`);
      for (const tag of ['og:title', 'og:description', 'og:url', 'og:type', 'twitter:card', 'twitter:title', 'twitter:description']) {
        if (!m.tags.get(tag)) problems.push(`${path}: ${tag}`);
      }
      if (m.tags.get('og:url') !== m.canonical) problems.push(`${path}: og:url differs from canonical`);
    }
    expect(problems).toEqual([]);
  });

  it('never repeats a title, description or canonical URL across indexable pages', () => {
    for (const key of ['title', 'description', 'canonical'] as const) {
      const seen = new Map<string, string>();
      const repeats: string[] = [];
      for (const { path, meta } of indexable()) {
        const value = meta![key]!;
        if (seen.has(value)) repeats.push(`${key} of ${path} repeats ${seen.get(value)}`);
        seen.set(value, path);
      }
      expect(repeats).toEqual([]);
    }
  });

  it('publishes JSON-LD that parses, is complete for its type and has the type each page needs', () => {
    const problems: string[] = [];
    for (const { path, meta } of indexable()) {
      const types: string[] = [];
      if (meta!.jsonLd.length === 0) problems.push(`${path}: no JSON-LD`);
      for (const text of meta!.jsonLd) {
        let block: unknown;
        try { block = JSON.parse(text); } catch { problems.push(`${path}: JSON-LD does not parse`); continue; }
        types.push(String((block as { '@type'?: unknown })['@type']));
        problems.push(...structuredDataProblems(block).map((p) => `${path}: ${p}`));
      }
      for (const [pattern, required] of REQUIRED_TYPES) {
        if (pattern.test(path)) for (const t of required) if (!types.includes(t)) problems.push(`${path}: no ${t}`);
      }
    }
    expect(problems).toEqual([]);
  });

  it('lists in the sitemap exactly the indexable pages reachable by links from /, networks apart', () => {
    const pagesOnly = (paths: string[]) => paths.filter((p) => !isNetworkPage(p)).sort();
    expect(new Set(sitemap).size).toBe(sitemap.length);
    expect([...sitemap].sort()).toEqual(pagesOnly(linkedFromHome));
    expect(pagesOnly(indexable().map((p) => p.path))).toEqual(pagesOnly(linkedFromHome));
  });

  it('lists the 3,000 largest networks in their own sitemap, the networks on /networks among them', () => {
    expect(networkSitemap).toHaveLength(3000);
    expect(new Set(networkSitemap).size).toBe(networkSitemap.length);
    const onHub = pages.get('/networks')!.refs.filter((r) => isNetworkPage(r));
    expect(onHub.length).toBeGreaterThan(50);
    expect(onHub.filter((p) => !networkSitemap.includes(p))).toEqual([]);
    // Every network page reached, by a link or from the sample, is indexable.
    const networks = [...pages.values()].filter((p) => isNetworkPage(p.path) && p.status === 200);
    expect(networks.length).toBeGreaterThan(NETWORK_SAMPLE);
    expect(networks.filter((p) => p.meta?.noindex).map((p) => p.path)).toEqual([]);
  });
});
