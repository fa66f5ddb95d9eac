/**
 * Copy of the DNS leak test (content/site/dns-leak.json): its page (/dns-leak-test), the
 * card that runs it (on that page and on the VPN tab of `/`), and the leak summary at the
 * top of the VPN tab. One entry per section, as content/site/ip-tools.json.
 */
import { z } from 'astro/zod';
import { pageHead, template, text } from './shared.ts';

/** The four states a leak check can be in, and two on the way (a test under way, an answer that settles nothing). */
const states = z.strictObject({
  noLeak: text('The check ran and found no leak'),
  leak: text('The check ran and found a leak'),
  notTested: text('The check has not run (yet), or could not'),
  notSetUp: text('This site does not offer the check'),
  testing: text('The check is under way'),
  inconclusive: text('The check ran but its answer settles nothing'),
});

export const dnsLeakCopySchema = z.discriminatedUnion('id', [
  z.strictObject({
    ...pageHead('/dns-leak-test'),
    intro: text('Paragraph under the heading: what the test shows'),
    how: z.array(text('One step of how the test works')).min(1).describe('How the test works, in order, one sentence each'),
    howHeading: text('Heading of the steps'),
    notSetUp: text('Shown instead of the test where this site has no DNS zone for it'),
    configFailed: text("Shown when the site's settings could not be read"),
    ctaHome: text('Link to /'),
  }),
  z.strictObject({
    id: z.literal('card'),
    title: text('Heading of the card'),
    intro: text('One or two sentences under the heading: what pressing Start does'),
    start: text('Start button'),
    again: text('The button once a test has run'),
    running: text('The button while the test runs'),
    waiting: text('Progress before the first answer'),
    progress: template('Progress while the names are being resolved, with {seen} and {total}'),
    done: template('Progress line once finished, with {seen} and {total}'),
    caption: text('Caption of the resolvers table'),
    columns: z.strictObject({
      address: text('Column: the resolver address'), network: text('Column: the public DNS service or network'),
      asn: text('Column: the AS number'), place: text('Column: country and city'),
      transport: text('Column: UDP or TCP'), ecs: text('Column: the EDNS Client Subnet passed on'),
    }),
    noEcs: text('ECS cell when the resolver passed none on'),
    unknown: text('A cell the data does not know'),
    failures: z.strictObject({
      network: text('The test could not reach our server'),
      timeout: text('Our server did not answer in time'),
      invalid: text('The answer could not be read'),
      api: template("The server's own error, with {message}"),
    }),
  }),
  z.strictObject({
    id: z.literal('summary'),
    title: text('Heading of the leak summary at the top of the VPN tab'),
    intro: text('One sentence under it'),
    rows: z.strictObject({ webrtc: text('Row: the WebRTC check'), dns: text('Row: the DNS leak test'), ipv6: text('Row: the IPv4/IPv6 check') }),
    states,
    details: text('Link to the check itself'),
  }),
]);
export type DnsLeakCopy = z.infer<typeof dnsLeakCopySchema>;
