/** Copy of the lookup pages (/, /ip-2, /ip-4, /lookup/{ip}): texts the islands show, page headings, the checklist. */
import { z } from 'astro/zod';
import { template, text } from './shared.ts';

/** The VPN panel when something was detected: one per kind (src/lib/vpn-panel.ts, PanelKind). */
const detectedText = z.strictObject({
  badge: text('What was detected, a badge above the headline'), headline: text('The headline'),
  meaning: text('What it means for the visitor: what sites and others see'),
  advice: text('What to do, and whether a VPN is sound advice here and why (offers show only where it is: OFFERS_SHOWN)'),
});

export const lookupTextSchema = z.strictObject({
  id: z.literal('lookup').describe('The one entry: texts of the lookup islands'),
  hero: z.strictObject({
    ipLabel: text('Label above the IP address box'),
    copyHint: text('Hint inside the IP box that a click copies'),
    copied: text('Toast after a successful copy (2 s)'),
    copiedBadge: text('Badge beside the IP after a copy (2 s)'),
    copyFailed: text('Toast when the clipboard refuses'),
    unknownPlace: text('Location line when city and country are unknown'),
    corrected: text('Mark beside the location line after the visitor corrected it'),
    unverified: text('The same mark when the chosen city could not be checked'),
  }),
  actions: z.strictObject({
    refresh: text('Refresh button'), refreshing: text('Refresh button while loading'), export: text('Export button'),
    noScript: text('Shown on / without JavaScript: why Refresh, Export and precise location are off'),
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
    confidence: template('Badge: how often the radius held the true place for addresses like this in the measurement (content/site/accuracy.json), {percent}; not shown where nothing measured it'), tier: template('Accuracy tier badge, {tier}'),
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
      corrected: template('After the visitor chose a city of known size, {place} and {radius} (how far the city reaches from its centre)'),
      correctedPlain: template('The same for a city of unknown size, {place}'),
      correctedUnverified: template('The same for a name the city search could not check, {place}'),
      ipDetails: text('After a correction: summary of the disclosure holding what the IP address says and its accuracy'),
      fromIp: template('First line of that disclosure, {place} (the IP-based place)'),
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
    corrected: text('Location card note after the visitor corrected the location'),
    hostname: text('Hostname label (reverse DNS)'), noHostname: text('Hostname value when the address has no name'),
    unconfirmed: text('Note after a hostname that does not resolve back to the address'),
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
    title: text('Heading of the leak check'), running: text('While gathering candidates and waiting for the server to classify them'),
    noLeak: text('No public address from a network other than the one the page came through'),
    leak: template('Addresses of another network found, {addresses}'),
    otherFamily: template("The visitor's own address of the other IP version, same network, {family} (IPv4 or IPv6) and {addresses}"),
    sameNetwork: template('Other addresses of the same network and IP version (e.g. IPv6 privacy addresses), {addresses}'),
    unchecked: text('Candidates gathered but the server could not be reached to classify them'),
    off: text('No STUN server configured (STUN_PORT=0 and no PUBLIC_STUN_URL)'),
    unsupported: text('The browser has no RTCPeerConnection'),
  }),
  map: z.strictObject({
    title: text('Map card heading'), live: text('Badge beside the map heading'), label: text('Accessible name of the map'),
    tooltip: text('Tooltip of the accuracy circle'), note: template("Text under the map, {radius} and {percent} (the measured share of the visitor's row of content/site/accuracy.json)"),
    noteUnmeasured: template('Text under the map when no measured row covers the record (GPS, only a country), {radius}'),
    reserved: template('Shown instead of a map for special-purpose addresses, {kind}'), loading: text('Placeholder until the map loads'),
    correctedTooltip: text('Tooltip of the circle once the visitor chose their city'),
    correctedNote: template('Text under the map once the visitor chose a city of known size, {place} and {radius} (how far the city reaches)'),
  }),
  verification: z.strictObject({
    title: text('Heading of the verification card'), intro: text('What the card is for'),
    shownLabel: text('Label of the location currently shown'),
    badges: z.strictObject({
      highAccuracy: text('Header badge when GPS made the record hybrid'), goodAccuracy: text('Header badge when confidence is above 0.8'),
      vpnDetected: text('Header badge when a VPN is detected'), approximate: text('Header badge otherwise'),
    }).describe('Header badge: the first that applies, in this order'),
    correct: text('Button that opens the city search'), issuesLabel: text('Heading of the common-issue buttons'),
    issues: z.strictObject({ wrongCity: text('Common issue button'), wrongCountry: text('Common issue button'), vpnShown: text('Common issue button') }),
    searchLabel: text('Label of the search box'), placeholder: text('Placeholder of the search box'), back: text('Button that leaves the search'),
    hint: text('Shown for queries of 1 or 2 characters'), searching: text('While a search runs'),
    noResults: template('No city found, {query}'), resultsLabel: text('Accessible name of the result list'),
    found: template('Announced to screen readers when results arrive, {count}'), population: template('Population line of a result, {population}'),
    unverified: text('Shown above the one fallback candidate when the search fails'), unverifiedTag: text('Tag on an unverified candidate'),
    toast: template('Toast for 3 s after choosing, {place}'), corrected: template('View mode after a correction, {place}'),
    correctedUnverified: template('The same for an unverified city, {place}'), undo: text('Button that removes the correction'),
    undone: text('Announced after undo'), privacy: text('What is kept and what is learned'),
    noScript: text('Shown instead of the card without JavaScript'),
  }),
  vpnPanel: z.strictObject({
    headlines: z.strictObject({ highRisk: text('Risk high'), moderateRisk: text('Risk medium'), protect: text('Otherwise, and before the record is known') })
      .describe('Headline when nothing was detected, by risk (src/lib/vpn-panel.ts, panelUrgency)'),
    urgencyLabels: z.strictObject({ low: text('Low urgency'), medium: text('Medium urgency'), high: text('High urgency') }),
    urgencyReasons: z.strictObject({ highRisk: text('Why, when the risk is high'), moderateRisk: text('Why, when the risk is medium'), protect: text('Why, otherwise') })
      .describe('The urgency in plain words, shown beside its label (the spec fixes the labels), by headline'),
    general: text('Why, before the record is known: the server HTML of /ip-4, and the page without JavaScript'),
    kinds: z.strictObject({
      tor: detectedText, relay: detectedText, vpn: detectedText, proxy: detectedText, hosting: detectedText, suspected: detectedText,
    }).describe('The panel when something was detected (src/lib/vpn-panel.ts, panelKind): Tor, Private Relay, a VPN, an open proxy, a hosting network, or a verdict from other signs'),
    categoryIntros: z.strictObject({ security: text('Intro of security offers'), streaming: text('Intro of streaming offers'), privacy: text('Intro of privacy offers') }),
    recommended: text('Label of the first offer of the category'),
    visit: template("Link text to the provider's site, {name}"), source: text("Label before a dated claim's source and its date"),
    disclosure: text('Shown under the offers when one of them is an affiliate link'),
    noAffiliates: text('Shown under the offers when none is an affiliate link'),
  }),
  analytics: z.strictObject({
    heading: text('Heading of the analytics tab'), intro: text('What the figures count and what is kept; {kept} is what a stored lookup holds (content/site/kept-fields.json)'),
    periodLabel: text('Label of the period selector'),
    periods: z.strictObject({ '24h': text('Option: 24 hours'), '7d': text('Option: 7 days'), '30d': text('Option: 30 days') }),
    waiting: text('Shown until the tab is opened (and without JavaScript)'), loading: text('While the figures load'),
    empty: text('No lookups in the period, or the figures could not be loaded'),
    lookups: text('Figure: lookups'), networks: text('Figure: distinct networks'), vpnRate: text('Figure: share of lookups with a VPN verdict'),
    change: template('Change against the previous period, {change}'), noChange: text('When the previous period has no lookups'),
    points: template('A rate change in percentage points, {points}'),
    countriesTitle: text('Heading of the top-countries list'), countryValue: template('A country\'s figure, {count} and {share}'),
    activityTitle: text('Heading of the activity chart'), activityDays: text('Chart title for days'), activityHours: text('Chart title for hours'),
    activitySummary: template('Chart description, {total}, {from}, {to}, {peak}, {peakCount}'),
    activityValues: text('Disclosure with the chart\'s values as a table'), activityUnit: text('Column of the values table'),
    accuracyTitle: text('Heading of the measured accuracy'), accuracyIntro: text('Where the accuracy figures come from'),
    accuracyNone: text('No corrections in the period'), accuracyAll: text('Row of all network types'),
    accuracyTooFew: template('Too few networks or providers to publish figures: {minNetworks}, {minAsns} (the minimum), {networks}, {asns} (this period)'),
    accuracyCounts: template('Under each row\'s name: what its figures rest on, {corrections} and {networks}'),
    networkTypes: z.strictObject({
      residential: text('Home broadband'), mobile: text('Mobile carriers'), business: text("Companies' own networks"),
      datacenter: text('Hosting, cloud or CDN'), private: text('Private and other special-purpose addresses'), other: text('Networks of no known kind'),
    }).describe('The accuracy table\'s network types in words (the record\'s network_type values)'),
    accuracyMethod: text('One sentence under the accuracy table: how corrections become figures (src/server/storage/queries.ts, ACCURACY)'),
    median: text('Column: median distance'), p90: text('Column: 90th percentile distance'),
    km: template('A distance, {km}'),
    recentTitle: text('Heading of the recent lookups (operator only)'), recentNote: text('Who sees the list and the export'),
    columns: z.strictObject({ network: text('Column: masked network'), place: text('Column: place'), verdict: text('Column: VPN verdict'), time: text('Column: time') }),
    vpnDetected: text('Verdict: VPN detected'), noVpn: text('Verdict: no VPN'), export: text('CSV export link'),
  }).describe('Texts of the analytics tab on /'),
  tabs: z.array(z.strictObject({ id: z.string().describe('Panel key the page renders'), label: text('Tab label') }))
    .min(1).describe('Tabs of the home page, in order; a tab whose panel the page does not render is left out'),
  tabsLabel: text('Accessible name of the tab list'),
});

export const lookupPagesSchema = z.strictObject({
  id: z.enum(['home', 'ip-2', 'ip-4', 'lookup']).describe("Which page ('lookup': /lookup/{ip}, whose texts may hold {ip})"),
  metaTitle: text('<title>'), metaDescription: text('Meta description'),
  heading: text('The h1'), intro: text('Tagline under the heading'),
  sectionHeading: text('Heading of the page\'s second section (details on /ip-2, checklist on /ip-4)').optional(),
});

export const privacyChecklistSchema = z.strictObject({
  id: z.string().describe('Stable key of the item'),
  order: z.number().int().describe('Position in the checklist, ascending'),
  priority: z.enum(['high', 'medium', 'low']).describe('How much the step protects'),
  title: text('What to do, as an imperative'),
  description: text('How to do it and why, one or two sentences'),
});
