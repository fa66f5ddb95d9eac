/** Site lists: the editorial arrays in content/site/ (trust, SEO insights, international, offers, page metadata). */
import { z } from 'astro/zod';
import { difficultyLevel, featureHref, id, position, timeText } from './shared.ts';

export const offersSchema = z.strictObject({
  id: z.string().describe('Stable key of the offer'),
  name: z.string().describe('Provider name as shown'),
  category: z.enum(['security', 'streaming', 'privacy']).describe('Which recommendation this offer answers'),
  order: z.number().int().describe('Position inside its category; the first is labelled RECOMMENDED'),
  description: z.string(),
  features: z.array(z.string()).min(1),
  // No price, rating, server or country count: they change every few months and had no
  // source. A claim that can go stale (an audit) names its dated source.
  icon: z.enum(['shield', 'lock', 'play']).describe('The outline icon beside the name (an inline SVG drawn by VpnPanel.tsx; no emoji, which needs an emoji font)'),
  website: z.url({ protocol: /^https$/ }).describe("The provider's own site, linked when there is no affiliate link"),
  source: z.strictObject({ title: z.string(), url: z.url({ protocol: /^https$/ }), date: z.coerce.date() }).optional()
    .describe('Where the dated claims among the features come from, and the date of that source'),
  affiliateUrl: z.union([z.url({ protocol: /^https$/ }), z.literal('')])
    .describe("Affiliate link (https); empty links the provider's own site instead, never a dead \"#\""),
});

export const trustMetricsSchema = z.strictObject({
  id, position,
  icon: z.string().describe('An emoji'),
  title: z.string(),
  description: z.string(),
  metric: z.string().describe("The figure as shown, e.g. '0'; one the site shows or its tests check, never an unmeasured uptime or accuracy"),
  colour: z.enum(['blue', 'green', 'purple', 'orange']).describe('Accent colour of the card'),
  href: featureHref.optional().describe('Where a visitor can see the claim for themselves'),
});

/** The outside hosts that learn a visitor's address (/trust), those the browser contacts and the server's DNS resolver: named, with how an operator replaces each. */
export const outsidePartiesSchema = z.strictObject({
  id, position,
  host: z.string().describe("The default host, e.g. 'tile.openstreetmap.org'"),
  what: z.string().describe('What is asked of it (by the browser or the server) and what that host learns'),
  selfHost: z.string().describe('How an operator serves it from their own host instead'),
  href: featureHref.describe('Where the visitor meets it on our site'),
});

export const awardsSchema = z.strictObject({ id, position, organization: z.string(), award: z.string(), year: z.number().int().min(2000).max(2100) });

export const authorSchema = z.strictObject({
  id, position,
  name: z.string(),
  title: z.string().describe('Job title'),
  credentials: z.array(z.string()).min(1),
  achievements: z.array(z.string()).min(1),
});

export const faqsSchema = z.strictObject({
  id, position,
  question: z.string(),
  answer: z.string(),
  category: z.enum(['privacy', 'technical', 'accuracy', 'security', 'protection', 'streaming']),
  links: z.array(z.strictObject({ label: z.string(), href: featureHref })).optional()
    .describe('The site features the answer names, each linked (an answer that names one must have its link)'),
});

export const howtoGuidesSchema = z.strictObject({
  id, position,
  title: z.string(),
  steps: z.array(z.string().min(1)).min(2),
  timeToComplete: timeText,
  difficulty: difficultyLevel,
  icon: z.string().describe('An emoji'),
});

export const vpnComparisonSchema = z.strictObject({
  id, position,
  provider: z.string(),
  // Prices, server and country counts and ratings change every few months and had no
  // source: a row carries only what a dated source confirms.
  noLogsAudit: z.string().describe('Who audited the no-logs policy, and when, as the source states it'),
  source: z.strictObject({ title: z.string(), url: z.url({ protocol: /^https$/ }), date: z.coerce.date() })
    .describe('Where the audit facts come from, and the date of that source'),
});

export const trendingSearchesSchema = z.strictObject({ id, position, term: z.string(), note: z.string().optional().describe('Why people search it') });

export const marketsSchema = z.strictObject({
  id, position,
  country: z.string(),
  language: z.string().describe('Main language, in English'),
  lang: z.string().regex(/^[a-z]{2,3}(?:-[A-Z]{2})?$/).describe("BCP 47 tag of the keywords' language, e.g. 'de', 'pt-BR'"),
  code: z.string().regex(/^[A-Z]{2}$/).describe('ISO 3166-1 alpha-2 code'),
  population: z.number().int().positive(),
  searchVolume: z.number().int().nonnegative()
    .describe("Monthly IP-related searches in this country in its main language (editorial estimate); the only home of this figure: the language table sums these"),
  keywords: z.array(z.string()).length(3).describe('Top 3 keywords in the local language'),
  flag: z.string().describe('Flag emoji'),
});

export const languagesSchema = z.strictObject({
  id, position,
  language: z.string(),
  speakers: z.number().int().positive().describe('Number of speakers'),
  // No search volume here: it is the sum of the markets in this language (markets.json), so one estimate never contradicts another.
  competition: z.enum(['Low', 'Medium', 'High']),
  opportunity: z.enum(['Medium', 'High', 'Very High']),
});

export const pagesSchema = z.strictObject({
  id: z.string().regex(/^\/[a-z0-9/-]*$/).describe("The page's path, e.g. '/blog'"),
  title: z.string().max(70).describe('<title> and social title; unique across the site'),
  description: z.string().min(50).max(170).describe('Meta description, 50-170 characters; unique across the site'),
  heading: z.string().describe('The h1'),
  intro: z.string().describe('Paragraph under the heading'),
});

export const securityTipsSchema = z.strictObject({ id, position, title: z.string(), body: z.string().describe('One or two sentences') });

export const dataKeptSchema = z.strictObject({
  id, position,
  title: z.string().describe('Heading; {days} is the retention period in days (ANALYTICS_RETENTION_DAYS at build time)'),
  body: z.string().describe('What is kept and why, in plain words; {days} as in the title; {lookupFields} and {correctionFields} are what a stored lookup and correction hold (content/site/kept-fields.json)'),
});

export const keptFieldsSchema = z.strictObject({
  id, position,
  row: z.enum(['lookup', 'correction']).describe('Which stored row: a recorded lookup or a correction (src/server/storage/event.ts)'),
  fields: z.array(z.string()).min(1).describe("The row's fields this entry covers, as named in src/server/storage/types.ts; every field needs an entry (a test checks)"),
  label: z.string().describe('The fields in words, as they read inside "we keep a, b and c"'),
});

export const footerCopySchema = z.strictObject({
  id: z.literal('footer'),
  privacy: z.string().describe('The privacy sentence under every page; {lookup} is what a stored lookup holds (content/site/kept-fields.json)'),
  privacyLink: z.string().describe('Words of the link to /trust#kept'),
  credits: z.string().describe('Words before the data credits (content/site/credits.json)'),
  creditsLink: z.string().describe('Words of the link to /trust#credits'),
  modifiedMark: z.string().describe("Added after the licence of a credit whose data was modified (CC BY asks it be said)"),
});

const https = z.url({ protocol: /^https$/ });

export const creditsSchema = z.strictObject({
  id, position,
  everyPage: z.boolean().describe("In every page's footer: the sources of what pages show (DB-IP asks for a link on every page that shows its results); the others are credited on /trust#credits, which the footer links (a page's first visit must stay within 10 KB gzipped: tests/page-shell.test.ts)"),
  name: z.string().describe('The credit as its owner asks for it, linked to `href` (DB-IP: "IP Geolocation by DB-IP")'),
  href: https.describe("The source's own page"),
  use: z.string().describe('What the site uses it for, one sentence (shown on /trust#credits)'),
  licence: z.strictObject({ name: z.string(), href: https }).describe('Its licence or terms, linked: every credit names one (a test checks)'),
  modified: z.string().optional().describe('How the data was changed, where it was: CC BY asks that this be said'),
});

export const statsSchema = z.strictObject({
  id, position,
  page: z.enum(['trust', 'international']).describe('Which page shows the figure in its statistics strip'),
  value: z.string().describe("The figure as shown, e.g. '100': a fact about the service a visitor can check, never an unmeasured user count, uptime or accuracy"),
  label: z.string(),
});

/** The public lists the server fetches by itself (src/server/data-update/list-sources.ts): /trust shows each with its credit's licence, the privacy reasons name it. */
export const listSourcesSchema = z.strictObject({
  id, position,
  title: z.string().min(1).describe("The list's own title, as /trust shows it"),
  name: z.string().min(1).describe("The list in a sentence, as a privacy reason names it: \"the Tor Project's exit list\""),
  service: z.string().min(1).optional().describe('The service every range of this list belongs to (a cloud provider), shown as the lookup\'s `service`'),
  what: z.string().min(1).describe('What the list holds and which flag it feeds'),
  credit: z.string().min(1).describe('Its entry in content/site/credits.json, whose licence /trust shows with it (one licence link per source: a test checks the entry exists)'),
  home: z.url({ protocol: /^https$/ }).describe("The list's home page"),
});
