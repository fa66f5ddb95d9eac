/** Landing pages and articles: one file per page under content/cities, isps, tools, guides and blog. */
import { z } from 'astro/zod';
import { difficultyLevel, featureHref, reviewed, slug, timeText } from './shared.ts';

/**
 * Where a page's dated facts (deals, counts, court cases, laws, census figures) come from:
 * each year a page names needs a source dated that year or within two years after it
 * (tests/content-claims.test.ts), so a fact cannot lean on a source from before it happened.
 */
const factSources = z.array(z.strictObject({ title: z.string(), url: z.url({ protocol: /^https$/ }), date: z.coerce.date() }))
  .describe('Where the dated facts (deals, counts, court cases, laws) come from, with the date of each source');

export const citiesSchema = z.strictObject({
  name: z.string().describe("City name as shown, e.g. 'São Paulo'; the file name is its slug: lowercased, accents dropped, spaces to hyphens (sao-paulo.json)"),
  state: z.string().describe('State, province or region'),
  country: z.string().describe('Country name in English'),
  countryCode: z.string().regex(/^[A-Z]{2}$/).describe('ISO 3166-1 alpha-2 code'),
  latitude: z.number().min(-90).max(90),
  longitude: z.number().min(-180).max(180),
  population: z.number().int().positive().describe('Population of the city proper'),
  timezone: z.string().regex(/^[A-Za-z_]+(?:\/[A-Za-z_+-]+)+$/).describe("IANA time zone, e.g. 'America/New_York'"),
  isps: z.array(z.string().min(1)).length(15).describe('15 internet providers serving the city, most popular first; the page shows the first 6'),
  intro: z.string().min(80).describe("One paragraph on the city's internet landscape, specific to this city"),
  tips: z.array(z.string().min(1)).optional().describe('Extra security tips for this city, shown after the general ones'),
  sources: factSources.optional(),
  reviewed,
});

export const ispsSchema = z.strictObject({
  name: z.string().describe('Provider name as shown; the file name is its slug (charter-spectrum.json)'),
  description: z.string().min(40).describe('One paragraph about the provider'),
  headquarters: z.string().describe("City and state/country, e.g. 'Philadelphia, Pennsylvania'"),
  technologies: z.array(z.string()).min(1).describe("Access technologies, e.g. 'Fiber', 'Cable (DOCSIS 3.1)'"),
  maxSpeed: z.string().describe("Fastest advertised plan, e.g. '2 Gbps'"),
  customers: z.string().describe("Customer base as text, e.g. '32 million'"),
  coverage: z.string().describe('Where it offers service'),
  privacyNotes: z.array(z.string()).min(1).describe('Privacy warnings specific to this provider'),
  asns: z.array(z.number().int().positive()).min(1).describe('Autonomous system numbers the provider announces'),
  sources: factSources.min(1),
  reviewed,
});

export const toolsSchema = z.strictObject({
  title: z.string().describe('Page heading and <title> start'),
  shortTitle: z.string().describe('Short name used on cards and in the related-tools grid'),
  tryIt: z.string().regex(/^\/[\w\-/]*(#[\w-]+)?$/).describe("Where 'Try it now' goes: the matching tool, e.g. '/ip-3#bulk' or '/#lookup' (the lookup box on the home page)"),
  description: z.string().min(50).max(170).describe('Meta description and intro, 50-170 characters'),
  intent: z.enum(['informational', 'navigational', 'transactional', 'commercial']).describe('Search intent of the keyword'),
  difficulty: z.number().int().min(0).max(100).describe('Keyword difficulty 0-100'),
  volume: z.number().int().nonnegative().describe('Monthly searches'),
  related: z.array(slug).min(1).describe('Slugs of OTHER tool pages (file names in content/tools); each must exist'),
  features: z.array(z.strictObject({ title: z.string(), body: z.string(), href: featureHref })).length(3)
    .describe('Exactly three feature cards, each linking to where the feature is'),
  steps: z.array(z.string().min(1)).length(4).describe("Exactly four usage steps, in order; 'https://<host>' becomes the site's origin"),
  keywords: z.array(z.string().min(1)).min(1).describe('Search keywords for the meta keywords tag'),
  reviewed,
});

export const guidesSchema = z.strictObject({
  title: z.string(),
  description: z.string().min(50).max(170).describe('Meta description and intro, 50-170 characters'),
  difficulty: difficultyLevel,
  timeToComplete: timeText,
  updated: z.coerce.date().describe('Date of the last review, YYYY-MM-DD'),
});

export const blogSchema = z.strictObject({
  title: z.string(),
  excerpt: z.string().min(50).max(200).describe('Shown on the card, under the title and as the meta description'),
  category: z.string().describe("Short category label, e.g. 'Privacy'"),
  readTime: z.number().int().positive().describe('Reading time in minutes'),
  views: z.number().int().nonnegative().describe('View count, shown with thousands separators'),
  publishDate: z.coerce.date().describe('YYYY-MM-DD'),
  trending: z.boolean().describe("Shows the 'Trending' badge on the list"),
  author: z.string().optional().describe('Author name; defaults to the site author'),
});
