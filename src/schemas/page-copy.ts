/** Page copy and measured figures: the advanced tools (/ip-3), /performance, and the accuracy figures /trust shows (content/site/accuracy.json, written by npm run bench:accuracy). */
import { z } from 'astro/zod';
import { id, pageHead, position, share, template, text } from './shared.ts';

export const ipToolsSchema = z.discriminatedUnion('id', [
  z.strictObject({
    ...pageHead('/ip-3'),
    intro: text('Paragraph under the heading'),
    ctaPerformance: text('Link to /performance'),
    ctaHome: text('Link to /'),
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
    accuracyValue: template('Accuracy line, with {tier}, {radius} (e.g. "2 km") and {measured} (accuracyMeasured, or nothing where no measurement covers the record)'),
    accuracyMeasured: template("How often the radius held for addresses like this one, {percent} (content/site/accuracy.json)"),
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
    id: z.literal('webrtc'),
    heading: text('Heading of the WebRTC leak test section'),
    intro: text('What the test does and why it matters'),
    resultTitle: text("Heading of the test's result line (the line's own texts: lookup-text.json webrtc)"),
  }),
  z.strictObject({
    id: z.literal('families'),
    heading: text('Heading of the IPv4/IPv6 check'),
    intro: text('What the check does'),
    ipv4: text('Label of the IPv4 row'),
    ipv6: text('Label of the IPv6 row'),
    checking: text('Row value while asking'),
    notAvailable: text('Row value when that family was asked over its echo URL and gave no address'),
    thisVisit: template('Row value of a family without an echo URL that this visit used, {ip}'),
    fromWebrtc: template('Row value of a family without an echo URL whose address the WebRTC check found, {ip}'),
    notTested: text('Row value of a family without an echo URL that nothing showed'),
    untested: text('One sentence, shown when a family has no echo URL: what is not tested and what the rows show instead'),
  }),
  z.strictObject({
    id: z.literal('port'),
    heading: text('Heading of the open-port check'),
    intro: text('What the check does, and that it checks the visitor\'s own address only'),
    inputLabel: text('Label of the port field'),
    inputHint: text('Hint under the field'),
    submit: text('Submit button'),
    busy: text('Submit button while the check runs'),
    commonLabel: text('Accessible name of the group of common ports'),
    commonButton: template('A common port\'s button, with {name} and {port}'),
    common: z.array(z.strictObject({ port: z.number().int().min(1).max(65535), name: text('What usually listens there') })).min(1)
      .describe('Common ports offered as one-click choices'),
    open: template('Answer when the port accepted a connection, with {port} and {ip}'),
    openMeaning: template('What an open port means, with {port}'),
    closed: template('Answer when it did not, with {port} and {ip}'),
    closedMeaning: template('What a closed port means, with {port}'),
    note: text('Note under the tool: what is checked and for how long'),
    networkError: text('Shown when the server cannot be reached'),
    invalidResponse: text('Shown when the answer is not a port check'),
  }),
]);

/** Copy of /international (its data: markets.json, languages.json, stats.json). */
export const internationalCopySchema = z.strictObject({
  id: z.literal('page'),
  statsLabel: text('Accessible name of the statistics strip'),
  chartHeading: text('Heading of the searches-by-country chart'),
  chartIntro: text('What the chart shows, in plain words'),
  chartCaption: text('Caption of the chart'),
  marketsHeading: text('Heading of the country cards'),
  marketsCount: template('Badge beside that heading, {count}'),
  language: text('Country card label: language'), population: text('Country card label: population'),
  searches: template("Country card label: monthly searches in the country's language, {language}"), keywordsTitle: text('Country card: title of the keyword list'),
  languagesHeading: text('Heading of the languages table'), languagesIntro: text('What the table tells, in plain words'),
  languagesCaption: text('Caption of the languages table'),
  columns: z.strictObject({
    language: text('Column'), speakers: text('Column'), searches: text('Column'), competition: text('Column'), opportunity: text('Column'),
  }),
});

export const performanceCopySchema = z.discriminatedUnion('id', [
  z.strictObject({
    ...pageHead('/performance'),
    headline: text('Headline statement; no figure here that nothing measured'),
    intro: text('Paragraph under the headline'),
    ctaLabel: text('Call to action link to /'),
  }),
  z.strictObject({
    id: z.literal('speed'),
    heading: text('Heading of the plain-words section on top'),
    intro: text('What the visitor gets, in plain words, before the chart'),
    chartCaption: text('Caption of the bar chart'),
    bars: z.array(z.strictObject({
      benchmark: z.string().describe('Id of a benchmarks.json row measured as a share of the bare server (unit "x bare")'),
      label: text('What the bar stands for, in plain words'),
    })).min(1).describe('One bar per measured ratio; the figures come from benchmarks.json'),
    latencyHeading: text('Heading of the latency paragraph, its own section: it measures an API route, not the home page'),
    latency: template('The p99 latency, {ms}: name the route measured and where it was timed (at the client, the server, a browser)'),
    latencyBenchmark: z.string().describe('Id of the benchmarks.json row the latency sentence reads (unit "ms")'),
    tableNote: text('Points to the benchmark table lower on the page'),
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
]);

export const webVitalsSchema = z.strictObject({
  id: z.enum(['LCP', 'FCP', 'CLS', 'INP', 'TTFB']).describe('Metric short name as web-vitals reports it'),
  name: text('Full metric name'),
  unit: z.enum(['ms', '']).describe('Unit shown after the value; empty for the unitless CLS'),
  description: text('What the metric measures and its good threshold'),
});

export const benchmarksSchema = z.strictObject({
  id, position,
  name: text('What was measured, e.g. "GET /api/lookup/{ip}, p50 latency"'),
  value: z.number().describe('The measured figure, as the command printed it'),
  unit: z.string().describe('Unit of value, e.g. "ms" or "req/s"'),
  measuredOn: z.iso.date().describe('Day of the measurement, YYYY-MM-DD'),
  command: text('The command that produced the figure, e.g. "npm run bench:api"'),
});

export const accuracySchema = z.strictObject({
  id: z.enum(['ripe-atlas']).describe('Which ground truth the figures were measured on'),
  measuredOn: z.iso.date().describe('Day of the measurement, YYYY-MM-DD'),
  command: text('The command that measured it'),
  probes: z.number().int().positive().describe('Rows of the ground truth'),
  fitProbes: z.number().int().nonnegative().describe('Rows the model was fitted on'),
  reportProbes: z.number().int().positive().describe('Rows the figures come from (the model never saw them)'),
  rows: z.array(z.strictObject({
    id: z.string().describe("'shown' or a city database's name"),
    addresses: z.number().int().positive(),
    insideRadius: share.nullable().describe('Share with the true place inside the stated radius; null without a radius'),
    medianErrorKm: z.number().nonnegative(),
    p90ErrorKm: z.number().nonnegative(),
    medianRadiusKm: z.number().nonnegative().nullable(),
    countryRight: share,
  })).min(1),
  cells: z.array(z.strictObject({
    id: z.string().describe('Row of the accuracy model, e.g. within-5-km'),
    addresses: z.number().int().positive(),
    insideRadius: share,
    medianErrorKm: z.number().nonnegative(),
    p90ErrorKm: z.number().nonnegative(),
    radiusKm: z.number().nonnegative(),
  })),
});

export const accuracyCopySchema = z.strictObject({
  id: z.literal('trust').describe('The one entry: the accuracy section of /trust'),
  heading: text('Section heading'),
  intro: text('What was measured and how'),
  caption: template('Caption of the main table, {count} {date} {command}'),
  columns: z.strictObject({
    what: text('Column: where the location comes from'), inside: text('Column: share inside the radius'),
    median: text('Column: median error'), p90: text('Column: 90th-percentile error'),
    radius: text('Column: median radius'), country: text('Column: share with the right country'),
  }),
  rows: z.record(z.string(), text('Label of a row of figures')).describe("Row labels by the figures' row id"),
  noRadius: text('Cell text for a source that states no radius'),
  summary: template("The figures in plain words, from the row of what we show: {median} {p90} {inside} {country}"),
  chartCaption: text('Caption of the chart of median errors by source'),
  selfReported: z.strictObject({
    heading: text("Heading of visitors' self-reported accuracy (their corrections, last 30 days)"),
    intro: text('What a correction keeps, and why the figures lean towards larger errors'),
    none: text('Shown when no visitor corrected a place in the period'),
    rule: text('Which corrections count and when figures are published, in plain words (src/server/storage/analytics.ts, queries.ts)'),
    tooFew: template('Shown instead of figures below the minimum: {minNetworks}, {minAsns}, {networks}, {asns}'),
    unavailable: text('Shown when the server records no corrections (analytics off) or the figures cannot be read'),
  }),
  cellsCaption: text('Caption of the per-evidence table'),
  cellColumns: z.strictObject({
    what: text('Column: evidence'), addresses: text('Column: probes'), radius: text('Column: radius'),
    inside: text('Column: share inside'), median: text('Column: median error'),
  }),
  cells: z.record(z.string(), text('Label of a row of the accuracy model')).describe("Evidence labels by the figures' cell id"),
  source: text('Attribution of the ground truth and its limits'),
});
