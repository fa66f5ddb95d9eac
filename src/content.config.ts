/**
 * Content collections: every piece of copy and data the pages show lives in `content/`,
 * typed here with strict schemas. An editor adds a page by adding one file.
 */
import { defineCollection } from 'astro:content';
import { file } from 'astro/loaders';
import { z } from 'astro/zod';

const navigation = defineCollection({
  loader: file('content/site/navigation.json'),
  schema: z.strictObject({
    id: z.string().describe('Stable key of the link'),
    label: z.string().describe('Text shown in the header'),
    href: z.string().startsWith('/').describe('Internal path the link opens; it must exist'),
    order: z.number().int().describe('Position in the header, ascending'),
  }),
});

const offers = defineCollection({
  loader: file('content/site/offers.json'),
  schema: z.strictObject({
    id: z.string().describe('Stable key of the offer'),
    name: z.string().describe('Provider name as shown'),
    category: z.enum(['security', 'streaming', 'privacy']).describe('Which recommendation this offer answers'),
    order: z.number().int().describe('Position inside its category; the first is labelled RECOMMENDED'),
    description: z.string(),
    features: z.array(z.string()).min(1),
    pricePerMonth: z.number().positive().describe('Price per month in USD'),
    rating: z.number().min(0).max(5),
    icon: z.string().describe('An emoji shown beside the name'),
    affiliateUrl: z.union([z.url({ protocol: /^https$/ }), z.literal('')])
      .describe('Affiliate link (https); empty shows the offer without a link, never a dead "#"'),
  }),
});

// Advanced tools (/ip-3) and performance (/performance) pages.

const text = (hint: string) => z.string().min(1).describe(hint);
const template = (hint: string) => text(`${hint}; {name} placeholders are filled in on screen`);

const tools = defineCollection({
  loader: file('content/site/tools.json'),
  schema: z.discriminatedUnion('id', [
    z.strictObject({
      id: z.literal('page'),
      title: text('Browser title of /ip-3'),
      description: text('Meta description of /ip-3'),
      heading: text('The page heading (h1)'),
      intro: text('Paragraph under the heading'),
    }),
    z.strictObject({
      id: z.literal('lookup'),
      heading: text('Heading of the single-address lookup'),
      intro: text('What the lookup tells'),
      inputLabel: text('Label of the address field'),
      inputHint: text('Hint under the field'),
      submit: text('Submit button'),
      busy: text('Submit button while the lookup runs'),
      resultHeading: template('Heading of the result card, with {ip}'),
      networkError: text('Shown when the server cannot be reached'),
      invalidResponse: text('Shown when the answer is not a lookup'),
      fields: z.strictObject({
        place: text('Label: city, region, country'), coordinates: text('Label: latitude, longitude'),
        timezone: text('Label: timezone'), network: text('Label: ISP or organisation'), asn: text('Label: ASN'),
        networkType: text('Label: network type'), vpn: text('Label: VPN verdict'), accuracy: text('Label: accuracy'),
        reserved: text('Label: special-purpose address kind'),
      }),
      vpnDetected: template('VPN verdict when detected, with {score}'),
      vpnNotDetected: template('VPN verdict when not detected, with {score}'),
      noIndicators: text('Shown when no VPN indicator fired'),
      accuracyValue: template('Accuracy line, with {tier}, {km} and {confidence}'),
      unknown: text('Shown for a field the databases do not know'),
    }),
    z.strictObject({
      id: z.literal('bulk'),
      heading: text('Heading of the bulk lookup'),
      intro: text('How to paste addresses'),
      inputLabel: text('Label of the text area'),
      submit: text('Submit button'),
      busy: text('Submit button while the lookup runs'),
      count: template('How many addresses will be sent, with {count}'),
      duplicates: template('How many repeats were dropped, with {count}'),
      empty: text('Shown when a submit finds no address'),
      tooMany: template('Shown over the limit, with {count} and {limit}'),
      caption: text('Caption of the results table'),
      columns: z.strictObject({
        input: text('Column: the pasted entry'), place: text('Column: place'), network: text('Column: network'),
        asn: text('Column: ASN'), networkType: text('Column: network type'), vpn: text('Column: VPN verdict'),
      }),
      rowError: template('A row whose entry failed, with {message}'),
      vpnYes: text('VPN column when detected'),
      vpnNo: text('VPN column when not detected'),
      download: text('CSV download button'),
      downloadBusy: text('CSV download button while the file is prepared'),
      downloadFailed: template('Shown when the CSV fails, with {message}'),
      fileName: z.string().regex(/^[\w.-]+\.csv$/).describe('Name of the downloaded file'),
      networkError: text('Shown when the server cannot be reached'),
      invalidResponse: text('Shown when the answer is not a bulk result'),
      unknown: text('Shown in a cell the databases do not know'),
    }),
    z.strictObject({
      id: z.literal('families'),
      heading: text('Heading of the IPv4/IPv6 check'),
      intro: text('What the check does'),
      ipv4: text('Label of the IPv4 row'),
      ipv6: text('Label of the IPv6 row'),
      checking: text('Row value while asking'),
      notAvailable: text('Row value when that family gave no address'),
      notConfigured: text('Row value when that family has no echo URL'),
      noneConfigured: text('Shown instead of the rows when neither family is configured'),
      configFailed: text('Shown when /api/config cannot be read'),
      loading: text('Shown while the settings load'),
    }),
  ]),
});

const performanceCopy = defineCollection({
  loader: file('content/site/performance.json'),
  schema: z.discriminatedUnion('id', [
    z.strictObject({
      id: z.literal('page'),
      title: text('Browser title of /performance'),
      description: text('Meta description of /performance'),
      heading: text('The page heading (h1)'),
      headline: text('Headline statement; no figure here that nothing measured'),
      intro: text('Paragraph under the headline'),
      ctaText: text('Call to action text'),
      ctaLabel: text('Call to action link to /'),
    }),
    z.strictObject({
      id: z.literal('vitals'),
      heading: text('Heading of the live panel'),
      intro: text('How the panel measures'),
      measuring: text('Status while measuring'),
      notMeasured: text('Value of a metric that has not reported yet'),
      ratings: z.strictObject({
        good: text('Rating label: good'),
        'needs-improvement': text('Rating label: needs improvement'),
        poor: text('Rating label: poor'),
      }),
    }),
    z.strictObject({
      id: z.literal('benchmarks'),
      heading: text('Heading of the benchmark table'),
      intro: text('What the figures are'),
      empty: text('Shown while no benchmark result is recorded'),
      caption: text('Caption of the benchmark table'),
      columns: z.strictObject({
        name: text('Column: benchmark'), value: text('Column: result'),
        measuredOn: text('Column: date'), command: text('Column: command'),
      }),
    }),
  ]),
});

const webVitals = defineCollection({
  loader: file('content/site/web-vitals.json'),
  schema: z.strictObject({
    id: z.enum(['LCP', 'FCP', 'CLS', 'INP', 'TTFB']).describe('Metric short name as web-vitals reports it'),
    name: text('Full metric name'),
    unit: z.enum(['ms', '']).describe('Unit shown after the value; empty for the unitless CLS'),
    description: text('What the metric measures and its good threshold'),
  }),
});

const benchmarks = defineCollection({
  loader: file('content/site/benchmarks.json'),
  schema: z.strictObject({
    id: z.string().describe('Stable key of the result'),
    name: text('What was measured, e.g. "GET /api/lookup/{ip}, p50 latency"'),
    value: z.number().describe('The measured figure, as the command printed it'),
    unit: z.string().describe('Unit of value, e.g. "ms" or "req/s"'),
    measuredOn: z.iso.date().describe('Day of the measurement, YYYY-MM-DD'),
    command: text('The command that produced the figure, e.g. "npm run bench:api"'),
  }),
});

export const collections = { navigation, offers, tools, performance: performanceCopy, webVitals, benchmarks };
