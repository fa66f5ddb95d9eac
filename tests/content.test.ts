/**
 * Content invariants the schemas cannot express per file: links between entries, the
 * slug rule, every page the site links to having its file (no broken internal link), facts
 * reviewed within a year, one home for each estimate, and every site feature an FAQ
 * answer names carrying its link (tests/e2e/feature-claims.test.ts follows the links).
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { reviewOverdue } from '../src/lib/content/reviewed.ts';
import { citySlug } from '../src/lib/content/slug.ts';

const CONTENT = path.resolve('content');
const slugsIn = (dir: string, ext: string) =>
  readdirSync(path.join(CONTENT, dir)).filter((f) => f.endsWith(ext)).map((f) => f.slice(0, -ext.length)).sort();
const readJson = <T>(file: string): T => JSON.parse(readFileSync(path.join(CONTENT, file), 'utf8')) as T;

const tools = slugsIn('tools', '.json');
const cities = slugsIn('cities', '.json');

/** Every tool page linked from the home page and the spec's keyword list. */
const LINKED_TOOLS = ['what-is-my-ip', 'find-my-ip', 'check-ip-address', 'ip-location', 'my-public-ip', 'ip-geolocation',
  'vpn-detection', 'ip-tracker', 'ip-privacy-check', 'bulk-ip-lookup', 'check-my-ip-address', 'find-my-public-ip',
  'show-my-ip', 'proxy-detection', 'ip-security-scan', 'current-ip', 'real-ip', 'get-my-ip'];
const LINKED_CITIES = ['new-york', 'los-angeles', 'london', 'tokyo', 'paris', 'berlin', 'sydney', 'toronto', 'singapore',
  'dubai', 'mumbai', 'sao-paulo', 'madrid', 'hong-kong'];
const LINKED_ISPS = ['comcast', 'att', 'verizon', 'charter-spectrum', 'cox', 'centurylink', 'google-fiber', 'optimum', 'xfinity', 't-mobile'];
const LINKED_GUIDES = ['how-to-find-ip-address', 'how-to-hide-ip-address', 'ip-address-privacy', 'network-security'];

describe('content', () => {
  it('has a page for every tool, city, ISP and guide the site links to', () => {
    expect(tools).toEqual(expect.arrayContaining(LINKED_TOOLS));
    expect(cities).toEqual(expect.arrayContaining(LINKED_CITIES));
    expect(cities.length).toBeGreaterThanOrEqual(22);
    expect(slugsIn('isps', '.json')).toEqual(expect.arrayContaining(LINKED_ISPS));
    expect(slugsIn('guides', '.mdx')).toEqual(expect.arrayContaining(LINKED_GUIDES));
  });

  it('has six blog posts including the two featured ones, none named like the blog 404 page', () => {
    const posts = slugsIn('blog', '.mdx');
    expect(posts).toHaveLength(6);
    expect(posts).toEqual(expect.arrayContaining(['what-is-my-ip-address-complete-guide', 'vpn-vs-proxy-ip-protection']));
    expect(posts).not.toContain('404');
  });

  it.each(tools)('tool %s relates only to other tool pages that exist', (slug) => {
    const { related } = readJson<{ related: string[] }>(`tools/${slug}.json`);
    expect(related).not.toContain(slug);
    for (const other of related) expect(tools, `${slug} → ${other}`).toContain(other);
  });

  it.each(cities)('city %s is named by its slug and lists 15 different ISPs', (slug) => {
    const city = readJson<{ name: string; isps: string[] }>(`cities/${slug}.json`);
    expect(citySlug(city.name)).toBe(slug);
    expect(new Set(city.isps).size).toBe(15);
  });

  it('has the editorial data in the counts the pages show', () => {
    const count = (file: string) => readJson<unknown[]>(`site/${file}.json`).length;
    expect({
      trustMetrics: count('trust-metrics'), awards: count('awards'), author: count('author'), faqs: count('faqs'),
      howtoGuides: count('howto-guides'), vpnComparison: count('vpn-comparison'), trendingSearches: count('trending-searches'),
      languages: count('languages'),
    }).toEqual({ trustMetrics: 4, awards: 3, author: 1, faqs: 6, howtoGuides: 3, vpnComparison: 3, trendingSearches: 10, languages: 5 });
    expect(readJson<Array<{ code: string }>>('site/markets.json').map((m) => m.code)).toEqual(['US', 'IN', 'BR', 'DE', 'FR', 'ES']);
    const stats = readJson<Array<{ page: string }>>('site/stats.json');
    expect(stats.filter((s) => s.page === 'trust')).toHaveLength(4);
    expect(stats.filter((s) => s.page === 'international')).toHaveLength(4);
  });

  const landingFiles = ['cities', 'isps', 'tools'].flatMap((dir) => slugsIn(dir, '.json').map((slug) => `${dir}/${slug}.json`));
  it.each(landingFiles)('%s had its facts reviewed within the last year', (file) => {
    const { reviewed } = readJson<{ reviewed?: string }>(file);
    expect(reviewed, `${file} has no "reviewed" date`).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    expect(reviewOverdue(new Date(reviewed!), new Date()), `${file}: reviewed ${reviewed}, more than a year ago: check its facts and sources, then update the date`).toBe(false);
  });

  it('gives every language of the language table at least one market, whose estimates it sums', () => {
    const markets = new Set(readJson<Array<{ language: string }>>('site/markets.json').map((m) => m.language));
    const languages = readJson<Array<{ language: string; searchVolume?: number }>>('site/languages.json');
    for (const l of languages) {
      expect(markets.has(l.language), `${l.language} has no market`).toBe(true);
      expect(l.searchVolume, `${l.language}: the estimate lives in markets.json only`).toBeUndefined();
    }
  });

  it('links every site feature an FAQ answer names', () => {
    const faqs = readJson<Array<{ id: string; answer: string; links?: Array<{ href: string }> }>>('site/faqs.json');
    // An answer that speaks of the site ("our", "we", "the home page") names one of its features.
    const namesTheSite = faqs.filter((f) => /\b(?:we|our|us|home page|this site)\b/i.test(f.answer));
    expect(namesTheSite.length).toBeGreaterThan(0);
    expect(namesTheSite.filter((f) => !f.links?.length).map((f) => f.id)).toEqual([]);
  });
});
