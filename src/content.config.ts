/**
 * Content collections: every piece of copy and data the pages show lives in `content/`,
 * typed here with strict schemas. An editor adds a page by adding one file.
 */
import { defineCollection } from 'astro:content';
import { file, glob } from 'astro/loaders';
import { z } from 'astro/zod';

const link = z.strictObject({
  id: z.string().describe('Stable key of the link'),
  label: z.string().describe('Text shown'),
  href: z.string().startsWith('/').describe('Internal path the link opens; it must exist'),
  order: z.number().int().describe('Position in the list, ascending'),
});

const navigation = defineCollection({ loader: file('content/site/navigation.json'), schema: link });

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
    officialUrl: z.url({ protocol: /^https$/ }).describe("The provider's own site (https): where 'Visit {name}' goes unless an affiliate link is set"),
    affiliateUrl: z.union([z.url({ protocol: /^https$/ }), z.literal('')])
      .describe('Affiliate link (https); set, it replaces the official site and is marked rel="sponsored"; empty, the button goes to the official site'),
  }),
});

/** A glob loader over one folder of `content/`: the id is the file name without extension. */
const folder = (dir: string, pattern: string) => glob({ pattern, base: `./content/${dir}` });
const slug = z.string().regex(/^[a-z0-9]+(?:-[a-z0-9]+)*$/, 'lowercase words joined by hyphens');
const timeText = z.string().regex(/\d/, 'must contain the number of minutes')
  .describe("How long it takes, as shown, e.g. '5 minutes'; the digits become the structured-data duration");
const difficultyLevel = z.enum(['Beginner', 'Intermediate']).describe('Who the guide is for');

const cities = defineCollection({
  loader: folder('cities', '*.json'),
  schema: z.strictObject({
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
  }),
});

const isps = defineCollection({
  loader: folder('isps', '*.json'),
  schema: z.strictObject({
    name: z.string().describe('Provider name as shown; the file name is its slug (charter-spectrum.json)'),
    description: z.string().min(40).describe('One paragraph about the provider'),
    headquarters: z.string().describe("City and state/country, e.g. 'Philadelphia, Pennsylvania'"),
    technologies: z.array(z.string()).min(1).describe("Access technologies, e.g. 'Fiber', 'Cable (DOCSIS 3.1)'"),
    maxSpeed: z.string().describe("Fastest advertised plan, e.g. '2 Gbps'"),
    customers: z.string().describe("Customer base as text, e.g. '32 million'"),
    coverage: z.string().describe('Where it offers service'),
    privacyNotes: z.array(z.string()).min(1).describe('Privacy warnings specific to this provider'),
    asns: z.array(z.number().int().positive()).min(1).describe('Autonomous system numbers the provider announces'),
  }),
});

const tools = defineCollection({
  loader: folder('tools', '*.json'),
  schema: z.strictObject({
    title: z.string().describe('Page heading and <title> start'),
    shortTitle: z.string().describe('Short name used on cards and in the related-tools grid'),
    tryIt: z.string().regex(/^\/[\w\-/]*(#[\w-]+)?$/).describe("Where 'Try it now' goes: the matching tool, e.g. '/ip-3#bulk' or '/#lookup' (the lookup box on the home page)"),
    description: z.string().min(50).max(170).describe('Meta description and intro, 50-170 characters'),
    intent: z.enum(['informational', 'navigational', 'transactional', 'commercial']).describe('Search intent of the keyword'),
    difficulty: z.number().int().min(0).max(100).describe('Keyword difficulty 0-100'),
    volume: z.number().int().nonnegative().describe('Monthly searches'),
    related: z.array(slug).min(1).describe('Slugs of OTHER tool pages (file names in content/tools); each must exist'),
    features: z.array(z.strictObject({ title: z.string(), body: z.string() })).length(3).describe('Exactly three feature cards'),
    steps: z.array(z.string().min(1)).length(4).describe("Exactly four usage steps, in order; 'https://<host>' becomes the site's origin"),
    keywords: z.array(z.string().min(1)).min(1).describe('Search keywords for the meta keywords tag'),
  }),
});

const guides = defineCollection({
  loader: folder('guides', '*.mdx'),
  schema: z.strictObject({
    title: z.string(),
    description: z.string().min(50).max(170).describe('Meta description and intro, 50-170 characters'),
    difficulty: difficultyLevel,
    timeToComplete: timeText,
    updated: z.coerce.date().describe('Date of the last review, YYYY-MM-DD'),
  }),
});

const blog = defineCollection({
  loader: folder('blog', '*.mdx'),
  schema: z.strictObject({
    title: z.string(),
    excerpt: z.string().min(50).max(200).describe('Shown on the card, under the title and as the meta description'),
    category: z.string().describe("Short category label, e.g. 'Privacy'"),
    readTime: z.number().int().positive().describe('Reading time in minutes'),
    views: z.number().int().nonnegative().describe('View count, shown with thousands separators'),
    publishDate: z.coerce.date().describe('YYYY-MM-DD'),
    trending: z.boolean().describe("Shows the 'Trending' badge on the list"),
    author: z.string().optional().describe('Author name; defaults to the site author'),
  }),
});

const id = z.string().describe('Stable key of the item (the file loader needs one)');
const position = z.number().int().nonnegative().describe('Set by the loader: index in the file (display order); do not write it');

/**
 * A file() loader over a JSON array that records each item's index as `position`:
 * Astro returns entries sorted by id, and the editors' array order is the display order.
 */
const inFileOrder = (path: string) => file(path, {
  parser: (text) => (JSON.parse(text) as Array<Record<string, unknown>>).map((item, index) => ({ ...item, position: index })),
});

const trustMetrics = defineCollection({
  loader: inFileOrder('content/site/trust-metrics.json'),
  schema: z.strictObject({
    id, position,
    icon: z.string().describe('An emoji'),
    title: z.string(),
    description: z.string(),
    metric: z.string().describe("The figure as shown, e.g. '99.9%'"),
    colour: z.enum(['blue', 'green', 'purple', 'orange']).describe('Accent colour of the card'),
  }),
});

const awards = defineCollection({
  loader: inFileOrder('content/site/awards.json'),
  schema: z.strictObject({ id, position, organization: z.string(), award: z.string(), year: z.number().int().min(2000).max(2100) }),
});

const author = defineCollection({
  loader: inFileOrder('content/site/author.json'),
  schema: z.strictObject({
    id, position,
    name: z.string(),
    title: z.string().describe('Job title'),
    credentials: z.array(z.string()).min(1),
    achievements: z.array(z.string()).min(1),
  }),
});

const faqs = defineCollection({
  loader: inFileOrder('content/site/faqs.json'),
  schema: z.strictObject({
    id, position,
    question: z.string(),
    answer: z.string(),
    category: z.enum(['privacy', 'technical', 'accuracy', 'security', 'protection', 'streaming']),
  }),
});

const howtoGuides = defineCollection({
  loader: inFileOrder('content/site/howto-guides.json'),
  schema: z.strictObject({
    id, position,
    title: z.string(),
    steps: z.array(z.string().min(1)).min(2),
    timeToComplete: timeText,
    difficulty: difficultyLevel,
    icon: z.string().describe('An emoji'),
  }),
});

const vpnComparison = defineCollection({
  loader: inFileOrder('content/site/vpn-comparison.json'),
  schema: z.strictObject({
    id, position,
    provider: z.string(),
    price: z.number().positive().describe('Price per month in USD'),
    countries: z.number().int().positive().describe('Countries with servers'),
    servers: z.number().int().positive().describe('Number of servers'),
    noLogs: z.boolean().describe('Audited no-logs policy'),
    rating: z.number().min(0).max(5),
  }),
});

const trendingSearches = defineCollection({
  loader: inFileOrder('content/site/trending-searches.json'),
  schema: z.strictObject({ id, position, term: z.string(), note: z.string().optional().describe('Why people search it') }),
});

const markets = defineCollection({
  loader: inFileOrder('content/site/markets.json'),
  schema: z.strictObject({
    id, position,
    country: z.string(),
    language: z.string().describe('Main language, in English'),
    lang: z.string().regex(/^[a-z]{2,3}(?:-[A-Z]{2})?$/).describe("BCP 47 tag of the keywords' language, e.g. 'de', 'pt-BR'"),
    code: z.string().regex(/^[A-Z]{2}$/).describe('ISO 3166-1 alpha-2 code'),
    population: z.number().int().positive(),
    searchVolume: z.number().int().nonnegative().describe('Monthly searches for IP-related keywords'),
    keywords: z.array(z.string()).length(3).describe('Top 3 keywords in the local language'),
    flag: z.string().describe('Flag emoji'),
  }),
});

const languages = defineCollection({
  loader: inFileOrder('content/site/languages.json'),
  schema: z.strictObject({
    id, position,
    language: z.string(),
    speakers: z.number().int().positive().describe('Number of speakers'),
    searchVolume: z.number().int().nonnegative().describe('Monthly searches for IP-related keywords'),
    competition: z.enum(['Low', 'Medium', 'High']),
    opportunity: z.enum(['Medium', 'High', 'Very High']),
  }),
});

/** Footer "Explore" links: every hub and editorial page, so each landing page is reachable. */
const explore = defineCollection({ loader: file('content/site/explore.json'), schema: link });

const pages = defineCollection({
  loader: file('content/site/pages.json'),
  schema: z.strictObject({
    id: z.string().regex(/^\/[a-z0-9/-]*$/).describe("The page's path, e.g. '/blog'"),
    title: z.string().max(70).describe('<title> and social title; unique across the site'),
    description: z.string().min(50).max(170).describe('Meta description, 50-170 characters; unique across the site'),
    heading: z.string().describe('The h1'),
    intro: z.string().describe('Paragraph under the heading'),
  }),
});

const securityTips = defineCollection({
  loader: inFileOrder('content/site/security-tips.json'),
  schema: z.strictObject({ id, position, title: z.string(), body: z.string().describe('One or two sentences') }),
});

const stats = defineCollection({
  loader: inFileOrder('content/site/stats.json'),
  schema: z.strictObject({
    id, position,
    page: z.enum(['trust', 'international']).describe('Which page shows the figure in its statistics strip'),
    value: z.string().describe("The figure as shown, e.g. '500K+' (marketing copy, not a measurement)"),
    label: z.string(),
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
    actions: z.strictObject({
      refresh: text('Refresh button'), refreshing: text('Refresh button while loading'), export: text('Export button'),
      noScript: text('Shown on / without JavaScript: why Refresh and Export are off'),
    }),
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
      radius: template('Accuracy radius badge, {radius}'), network: template('Network type badge in the details, {type}'),
      networkKinds: z.strictObject({
        mobile: text('Mobile carrier'), business: text("A company's own network"), datacenter: text('Hosting, cloud or CDN'),
        residential: text('Home broadband'),
      }).describe('Network kinds in words, a badge in the hero; a network of no known kind gets none there'),
      version: template('IP version badge in the details, {version}'),
      sentence: z.strictObject({
        near: template('Where the address is, {radius} and {place}'),
        nearDisagree: template('The same, when the two databases disagree, {radius}, {place} and {km}'),
        nearAgree: template('The same, when the two databases name places under 1 km apart, {radius} and {place}'),
        gps: template('With a GPS fix, {radius}'),
        region: template('Only a country or region is known, {place}'),
        exit: template('Behind a VPN or relay: the place is the exit\'s, {radius} and {place}'),
        unknown: text('Nothing is known of the place'),
        details: text('Summary of the disclosure holding the accuracy badges'),
      }).describe('The one sentence the hero says about where the address is (src/lib/accuracy-sentence.ts picks one)'),
      torExit: text('Verdict badge when the address is a listed Tor exit'),
      privateRelay: text('Verdict badge when the address is an iCloud Private Relay egress'),
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
    lookupBox: z.strictObject({
      heading: text("Heading of the 'look up any IP' box"), label: text('Label of its address field'),
      submit: text('Its button'), hint: text('Hint under the field'),
    }).describe("The 'look up any IP' box on / and on each /lookup/{ip} page (a plain form: it works without JavaScript)"),
    lookupPage: z.strictObject({
      ipLabel: text('Label above the address on /lookup/{ip}'),
      detailsHeading: text('Heading (h2) above the cards on /lookup/{ip}'),
      invalidTitle: text('Browser title of the 400 page for something that is not an address'),
      invalidHeading: template('Heading of that page, {ip}'),
      invalidText: text('What a valid address looks like'),
    }),
    privacy: z.strictObject({
      flags: z.strictObject({
        tor: text('Flag: Tor exit list'), relay: text('Flag: iCloud Private Relay egress list'), vpn: text('Flag: VPN list or brand'),
        proxy: text('Flag: open-proxy list'), hosting: text('Flag: hosting network'),
      }).describe('Names of the privacy flags, in the VPN card and the lookup result'),
      yes: text('Flag answer: listed'), no: text('Flag answer: checked, not listed'),
      unavailable: text('Flag answer: the list is not loaded, so the check did not run'),
      service: text('Label of the service name (Tor, iCloud Private Relay, a VPN)'),
    }),
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
      categoryIntros: z.strictObject({ security: text('Intro of security offers'), streaming: text('Intro of streaming offers'), privacy: text('Intro of privacy offers') }),
      recommended: text('Label of the first offer of the category'), rating: template("Editor's rating, {rating}"),
      price: template('Price, {price}'), visit: template("Button to the provider's site, {name}"),
      disclosure: text('Affiliate disclosure under the offers, shown when one of them is an affiliate link'),
    }),
    tabs: z.array(z.strictObject({ id: z.string().describe('Panel key the page renders'), label: text('Tab label') }))
      .min(1).describe('Tabs of the home page, in order; a tab whose panel the page does not render is left out'),
    tabsLabel: text('Accessible name of the tab list'),
  }),
});

const lookupPages = defineCollection({
  loader: file('content/site/lookup-pages.json'),
  schema: z.strictObject({
    id: z.enum(['home', 'ip-2', 'ip-4', 'lookup']).describe("Which page ('lookup': /lookup/{ip}, whose texts may hold {ip})"),
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

// Advanced tools (/ip-3) and performance (/performance) pages (text and template: see above).

/** Head of a page section: search metadata, breadcrumb, h1 and the closing call to action's heading and text. */
const pageHead = (path: string) => ({
  id: z.literal('page'),
  title: z.string().min(1).max(70).describe(`Browser title of ${path}; unique across the site`),
  description: z.string().min(50).max(170).describe(`Meta description of ${path}, 50-170 characters; unique across the site`),
  breadcrumb: text('Short name of the page in the breadcrumb trail'),
  heading: text('The page heading (h1)'),
  ctaHeading: text('Heading of the closing call to action'),
  ctaText: text('Sentence of the call to action'),
});

const ipTools = defineCollection({
  loader: file('content/site/ip-tools.json'),
  schema: z.discriminatedUnion('id', [
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
      accuracyValue: template('Accuracy line, with {tier}, {radius} (e.g. "2 km") and {confidence} (percent)'),
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
      notAvailable: text('Row value when that family gave no address (a family without an echo URL has no row, and no family none: no section)'),
    }),
  ]),
});

// Copy of /international (its data: markets.json, languages.json, stats.json).
const internationalCopy = defineCollection({
  loader: file('content/site/international.json'),
  schema: z.strictObject({
    id: z.literal('page'),
    statsLabel: text('Accessible name of the statistics strip'),
    chartHeading: text('Heading of the searches-by-country chart'),
    chartIntro: text('What the chart shows, in plain words'),
    chartCaption: text('Caption of the chart'),
    marketsHeading: text('Heading of the country cards'),
    marketsCount: template('Badge beside that heading, {count}'),
    language: text('Country card label: language'), population: text('Country card label: population'),
    searches: text('Country card label: monthly searches'), keywordsTitle: text('Country card: title of the keyword list'),
    languagesHeading: text('Heading of the languages table'), languagesIntro: text('What the table tells, in plain words'),
    languagesCaption: text('Caption of the languages table'),
    columns: z.strictObject({
      language: text('Column'), speakers: text('Column'), searches: text('Column'), competition: text('Column'), opportunity: text('Column'),
    }),
  }),
});

const performanceCopy = defineCollection({
  loader: file('content/site/performance.json'),
  schema: z.discriminatedUnion('id', [
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
      latency: template('One sentence with the p99 latency, {ms}'),
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
  loader: inFileOrder('content/site/benchmarks.json'),
  schema: z.strictObject({
    id, position,
    name: text('What was measured, e.g. "GET /api/lookup/{ip}, p50 latency"'),
    value: z.number().describe('The measured figure, as the command printed it'),
    unit: z.string().describe('Unit of value, e.g. "ms" or "req/s"'),
    measuredOn: z.iso.date().describe('Day of the measurement, YYYY-MM-DD'),
    command: text('The command that produced the figure, e.g. "npm run bench:api"'),
  }),
});

export const collections = {
  navigation, explore, pages, offers, cities, isps, tools, guides, blog,
  trustMetrics, awards, author, faqs, howtoGuides, vpnComparison, trendingSearches, markets, languages, stats, securityTips,
  lookupText, lookupPages, privacyChecklist, internationalCopy,
  ipTools, performance: performanceCopy, webVitals, benchmarks,
};
