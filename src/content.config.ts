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

// Copy of the lookup pages (/, /ip-2, /ip-4): texts the islands show, page headings, checklist.
const text = (describe: string) => z.string().min(1).describe(describe);
const template = (describe: string) => z.string().min(1).describe(`${describe}; {name} marks a value filled in`);

const lookupText = defineCollection({
  loader: file('content/site/lookup-text.json'),
  schema: z.strictObject({
    id: z.literal('lookup').describe('The one entry: texts of the lookup islands'),
    hero: z.strictObject({
      ipLabel: text('Label above the IP address box'),
      copyHint: text('Hint inside the IP box that a click copies'),
      copied: text('Toast after a successful copy (2 s)'),
      copiedBadge: text('Badge beside the IP after a copy (2 s)'),
      copyFailed: text('Toast when the clipboard refuses'),
      unknownPlace: text('Location line when city and country are unknown'),
    }),
    actions: z.strictObject({ refresh: text('Refresh button'), refreshing: text('Refresh button while loading'), export: text('Export button') }),
    status: z.strictObject({
      loading: text('Shown only while a lookup is in flight'), loadingHint: text('Second line of the loading state'),
      errorTitle: text('Heading of the error screen'), errorMessage: text('Message when the lookup fails'),
      tryAgain: text('Button that retries'), noScript: text('Shown without JavaScript on pages that fetch their data'),
    }),
    badges: z.strictObject({
      listLabel: text('Accessible name of the badge row'), vpnDetected: text('VPN verdict badge, detected'),
      noVpn: text('VPN verdict badge, not detected'), gpsEnhanced: text('Badge when GPS improved the record'),
      consensus: template('Consensus badge, {km}'), rtt: template('Round-trip badge, {ms}'),
      confidence: template('Confidence badge, {percent}'), tier: template('Accuracy tier badge, {tier}'),
      radius: template('Accuracy radius badge, {radius}'), network: template('Network type badge, {type}'),
      version: template('IP version badge, {version}'),
    }),
    cards: z.strictObject({
      networkTitle: text('Network card heading'), isp: text('ISP label'), asn: text('ASN label'), timezone: text('Timezone label'),
      postal: text('Postal code label'), locationTitle: text('Location card heading'), city: text('City label'), region: text('Region label'),
      country: text('Country label'), coordinates: text('Coordinates label'), deviceTitle: text('Device card heading'),
      browser: text('Browser label'), os: text('Operating system label'), device: text('Device type label'),
      noDevice: text('Device card text when the browser sent no User-Agent'), vpnTitle: text('VPN verdict card heading'),
      vpnNone: text('VPN card text when no indicator fired'),
      reserved: template('Location card text for special-purpose addresses, {kind}'),
    }).describe('Headings and field labels of the network, location, device and VPN cards'),
    gps: z.strictObject({
      enable: text('Precise-location button on the home page'), enableSimple: text('Precise-location button on /ip-2'),
      asking: text('While the browser asks for permission'), denied: text('Permission denied'),
      timeout: text('No fix within 5 s'), failed: text('Any other failure'),
    }),
    webrtc: z.strictObject({
      title: text('Heading of the leak check'), running: text('While gathering candidates'), noLeak: text('No public address other than the server-seen one'),
      leak: template('Leak found, {addresses}'), unsupported: text('The browser has no RTCPeerConnection'),
    }),
    map: z.strictObject({
      title: text('Map card heading'), live: text('Badge beside the map heading'), label: text('Accessible name of the map'),
      tooltip: text('Tooltip of the accuracy circle'), note: template('Text under the map, {radius}'),
      reserved: template('Shown instead of a map for special-purpose addresses, {kind}'), loading: text('Placeholder until the map loads'),
    }),
    vpnPanel: z.strictObject({
      headlines: z.strictObject({ vpnDetected: text('VPN detected'), highRisk: text('Risk high'), moderateRisk: text('Risk medium'), protect: text('Otherwise') }),
      urgencyLabels: z.strictObject({ low: text('Low urgency'), medium: text('Medium urgency'), high: text('High urgency') }),
      categoryIntros: z.strictObject({ security: text('Intro of security offers'), streaming: text('Intro of streaming offers'), privacy: text('Intro of privacy offers') }),
      recommended: text('Label of the first offer of the category'), rating: template("Editor's rating, {rating}"),
      price: template('Price, {price}'), visit: template('Affiliate link text, {name}'), noLink: text('Shown when an offer has no link yet'),
      disclosure: text('Affiliate disclosure under the offers'),
    }),
    tabs: z.array(z.strictObject({ id: z.string().describe('Panel key the page renders'), label: text('Tab label') }))
      .min(1).describe('Tabs of the home page, in order; a tab whose panel the page does not render is left out'),
    tabsLabel: text('Accessible name of the tab list'),
  }),
});

const lookupPages = defineCollection({
  loader: file('content/site/lookup-pages.json'),
  schema: z.strictObject({
    id: z.enum(['home', 'ip-2', 'ip-4']).describe('Which page'),
    metaTitle: text('<title>'), metaDescription: text('Meta description'),
    heading: text('The h1'), intro: text('Tagline under the heading'),
    sectionHeading: text('Heading of the page\'s second section (details on /ip-2, checklist on /ip-4)').optional(),
  }),
});

const privacyChecklist = defineCollection({
  loader: file('content/site/privacy-checklist.json'),
  schema: z.strictObject({
    id: z.string().describe('Stable key of the item'),
    order: z.number().int().describe('Position in the checklist, ascending'),
    priority: z.enum(['high', 'medium', 'low']).describe('How much the step protects'),
    title: text('What to do, as an imperative'),
    description: text('How to do it and why, one or two sentences'),
  }),
});

export const collections = { navigation, offers, lookupText, lookupPages, privacyChecklist };
