/**
 * Content collections: every piece of copy and data the pages show lives in `content/`,
 * typed by the strict schemas in src/schemas/ (one module per kind of content). This file
 * wires each collection to its files. An editor adds a page by adding one file.
 */
import { defineCollection } from 'astro:content';
import { file, glob } from 'astro/loaders';
import { link } from './schemas/shared.ts';
import { citiesSchema, ispsSchema, toolsSchema, guidesSchema, blogSchema } from './schemas/landing.ts';
import { offersSchema, trustMetricsSchema, outsidePartiesSchema, awardsSchema, authorSchema, faqsSchema, howtoGuidesSchema, vpnComparisonSchema, trendingSearchesSchema, marketsSchema, languagesSchema, pagesSchema, securityTipsSchema, dataKeptSchema, statsSchema, keptFieldsSchema, footerCopySchema, creditsSchema, listSourcesSchema } from './schemas/site-lists.ts';
import { lookupTextSchema, lookupPagesSchema, privacyChecklistSchema } from './schemas/lookup-copy.ts';
import { networkPagesSchema } from './schemas/network-copy.ts';
import { dnsLeakCopySchema } from './schemas/dns-leak-copy.ts';
import { ipToolsSchema, internationalCopySchema, performanceCopySchema, webVitalsSchema, benchmarksSchema, accuracySchema, accuracyCopySchema } from './schemas/page-copy.ts';

/** A glob loader over one folder of `content/`: the id is the file name without extension. */
const folder = (dir: string, pattern: string) => glob({ pattern, base: `./content/${dir}` });
/**
 * A file() loader over a JSON array that records each item's index as `position`:
 * Astro returns entries sorted by id, and the editors' array order is the display order.
 */
const inFileOrder = (path: string) => file(path, {
  parser: (text) => (JSON.parse(text) as Array<Record<string, unknown>>).map((item, index) => ({ ...item, position: index })),
});

export const collections = {
  navigation: defineCollection({ loader: file('content/site/navigation.json'), schema: link }),
  /** Footer "Explore" links: every hub and editorial page, so each landing page is reachable. */
  explore: defineCollection({ loader: file('content/site/explore.json'), schema: link }),
  cities: defineCollection({ loader: folder('cities', '*.json'), schema: citiesSchema }),
  isps: defineCollection({ loader: folder('isps', '*.json'), schema: ispsSchema }),
  tools: defineCollection({ loader: folder('tools', '*.json'), schema: toolsSchema }),
  guides: defineCollection({ loader: folder('guides', '*.mdx'), schema: guidesSchema }),
  blog: defineCollection({ loader: folder('blog', '*.mdx'), schema: blogSchema }),
  offers: defineCollection({ loader: file('content/site/offers.json'), schema: offersSchema }),
  trustMetrics: defineCollection({ loader: inFileOrder('content/site/trust-metrics.json'), schema: trustMetricsSchema }),
  outsideParties: defineCollection({ loader: inFileOrder('content/site/outside-parties.json'), schema: outsidePartiesSchema }),
  awards: defineCollection({ loader: inFileOrder('content/site/awards.json'), schema: awardsSchema }),
  author: defineCollection({ loader: inFileOrder('content/site/author.json'), schema: authorSchema }),
  faqs: defineCollection({ loader: inFileOrder('content/site/faqs.json'), schema: faqsSchema }),
  howtoGuides: defineCollection({ loader: inFileOrder('content/site/howto-guides.json'), schema: howtoGuidesSchema }),
  vpnComparison: defineCollection({ loader: inFileOrder('content/site/vpn-comparison.json'), schema: vpnComparisonSchema }),
  trendingSearches: defineCollection({ loader: inFileOrder('content/site/trending-searches.json'), schema: trendingSearchesSchema }),
  markets: defineCollection({ loader: inFileOrder('content/site/markets.json'), schema: marketsSchema }),
  languages: defineCollection({ loader: inFileOrder('content/site/languages.json'), schema: languagesSchema }),
  pages: defineCollection({ loader: file('content/site/pages.json'), schema: pagesSchema }),
  securityTips: defineCollection({ loader: inFileOrder('content/site/security-tips.json'), schema: securityTipsSchema }),
  dataKept: defineCollection({ loader: inFileOrder('content/site/data-kept.json'), schema: dataKeptSchema }),
  /** Every field of a stored analytics row in words: the one source of each "what we keep" list. */
  keptFields: defineCollection({ loader: inFileOrder('content/site/kept-fields.json'), schema: keptFieldsSchema }),
  /** Every data source the site shows or uses, with its licence: the footer and /trust#credits. */
  credits: defineCollection({ loader: inFileOrder('content/site/credits.json'), schema: creditsSchema }),
  footerCopy: defineCollection({ loader: file('content/site/footer.json'), schema: footerCopySchema }),
  stats: defineCollection({ loader: inFileOrder('content/site/stats.json'), schema: statsSchema }),
  lookupText: defineCollection({ loader: file('content/site/lookup-text.json'), schema: lookupTextSchema }),
  lookupPages: defineCollection({ loader: file('content/site/lookup-pages.json'), schema: lookupPagesSchema }),
  networkPages: defineCollection({ loader: file('content/site/network-pages.json'), schema: networkPagesSchema }),
  privacyChecklist: defineCollection({ loader: file('content/site/privacy-checklist.json'), schema: privacyChecklistSchema }),
  internationalCopy: defineCollection({ loader: file('content/site/international.json'), schema: internationalCopySchema }),
  ipTools: defineCollection({ loader: file('content/site/ip-tools.json'), schema: ipToolsSchema }),
  performance: defineCollection({ loader: file('content/site/performance.json'), schema: performanceCopySchema }),
  webVitals: defineCollection({ loader: file('content/site/web-vitals.json'), schema: webVitalsSchema }),
  benchmarks: defineCollection({ loader: inFileOrder('content/site/benchmarks.json'), schema: benchmarksSchema }),
  accuracy: defineCollection({ loader: file('content/site/accuracy.json'), schema: accuracySchema }),
  accuracyCopy: defineCollection({ loader: file('content/site/accuracy-copy.json'), schema: accuracyCopySchema }),
  dnsLeakCopy: defineCollection({ loader: file('content/site/dns-leak.json'), schema: dnsLeakCopySchema }),
  listSources: defineCollection({ loader: inFileOrder('content/site/list-sources.json'), schema: listSourcesSchema }),
};
