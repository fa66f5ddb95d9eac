/**
 * The DNS leak test's API answers, as the page reads them: POST /api/dns-leak hands out a
 * token and the never-seen names to load; GET /api/dns-leak/{token} tells which resolvers
 * asked our DNS responder for them, each looked up like any address, and the verdict. The
 * browser validates both at the boundary (src/stores/dns-leak.ts).
 */
import * as z from 'zod/mini';
import { NETWORK_TYPES, PrivacySchema } from './record.ts';

/** A token as the API hands it out: 128 random bits in lowercase hex. */
export const DNS_LEAK_TOKEN = /^[0-9a-f]{32}$/;

/**
 * The answer of POST /api/dns-leak: 6 names, or 36 with `?extended=1`, valid for `expires_in`
 * seconds. (The token's form is checked by the store against DNS_LEAK_TOKEN.)
 */
export const DnsLeakStartSchema = z.object({
  token: z.string(),
  names: z.array(z.string()).check(z.maxLength(64)),
  expires_in: z.number(),
});
export type DnsLeakStart = z.infer<typeof DnsLeakStartSchema>;

export const DNS_TRANSPORTS = ['udp', 'tcp'] as const;

/** One resolver that asked for the token's names. */
export const DnsResolverSchema = z.object({
  ip: z.string(),
  transports: z.array(z.enum(DNS_TRANSPORTS)),
  /** The EDNS Client Subnet the resolver passed on (a prefix of the visitor's address), or null. */
  ecs: z.nullable(z.string()),
  /** Whether the resolver asked for DNSSEC records (the DO bit). */
  dnssec_ok: z.boolean(),
  queries: z.number(),
  first_seen: z.string(),
  asn: z.nullable(z.number()),
  as_name: z.nullable(z.string()),
  /** The public resolver service the address belongs to (Google Public DNS, Cloudflare...), or null. */
  operator: z.nullable(z.string()),
  country: z.nullable(z.string()),
  country_name: z.nullable(z.string()),
  city: z.nullable(z.string()),
  network_type: z.enum(NETWORK_TYPES),
  privacy: PrivacySchema,
});
export type DnsResolver = z.infer<typeof DnsResolverSchema>;

export const DNS_VERDICTS = ['waiting', 'no_leak', 'leak', 'not_conclusive'] as const;
export type DnsVerdictState = (typeof DNS_VERDICTS)[number];

/** The answer of GET /api/dns-leak/{token}: what was seen so far, and one sentence of verdict. */
export const DnsLeakResultSchema = z.object({
  token: z.string(),
  names_total: z.number(),
  names_seen: z.number(),
  resolvers: z.array(DnsResolverSchema),
  verdict: z.object({ state: z.enum(DNS_VERDICTS), text: z.string() }),
});
export type DnsLeakResult = z.infer<typeof DnsLeakResultSchema>;
