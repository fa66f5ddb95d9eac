/**
 * The DNS leak test's verdict words and the public resolvers it names
 * (content/site/dns-leak-verdicts.json), read by the server's GET /api/dns-leak/{token}
 * (src/server/handlers/dns-leak-api.ts); the rule that picks a sentence is src/lib/dns-leak-verdict.ts.
 */
import { z } from 'astro/zod';

const sentence = (describe: string) => z.string().min(1).describe(describe);

export const dnsLeakVerdictsSchema = z.strictObject({
  operators: z.array(z.strictObject({
    name: z.string().min(1).describe("How the page names the service, e.g. 'Cloudflare'"),
    asns: z.array(z.number().int().min(1).max(4_294_967_295)).min(1).describe('The AS numbers its resolvers ask from'),
  })).describe('Public DNS resolvers named by their network: a resolver in one of these ASNs is shown as the service'),
  verdicts: z.strictObject({
    waiting: sentence('No resolver has asked yet'),
    vpnOwnNetwork: sentence('On a VPN, every resolver is in its network: {name}, {asn}'),
    vpnProvider: sentence("On a VPN, a resolver is in an internet provider's network (a leak): {name}"),
    vpnOther: sentence("On a VPN, a resolver is in another network (a public resolver, a host): {name}, {asn}, {place}"),
    ownProvider: sentence("Without a VPN, the resolvers are in the visitor's own network: {name}"),
    other: sentence('Without a VPN, a resolver is in another network: {name}, {asn}, {place}'),
    unknown: sentence("The visitor's or a resolver's network is not in the data"),
    place: sentence("What {place} becomes when the resolver's country is known: {country}"),
  }).describe('One plain sentence per verdict; {asn} reads AS13335'),
});
export type DnsLeakVerdicts = z.infer<typeof dnsLeakVerdictsSchema>;
