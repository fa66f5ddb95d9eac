/**
 * The upstream formats of the public lists, each turned into our list format (one
 * `cidr,label` a line, src/server/data/range-list.ts): plain lists (the Tor bulk exit
 * list, X4BNet's lists_vpn, Cloudflare's ips-v4/ips-v6), Apple's Private Relay egress CSV
 * (`prefix,country,region,city,`: the label is the place), an RFC 8805 geofeed
 * (DigitalOcean's geo.csv), and the JSON documents of AWS (ip-ranges.json), Google Cloud
 * (cloud.json) and Oracle Cloud (public_ip_ranges.json). A document whose shape is not its
 * format's throws; lines that are not addresses are kept for the caller's check to count
 * (list-update.ts). Tested with fixtures in each upstream's format (tests/list-refresh.test.ts).
 */
import * as z from 'zod/mini';

export type ListFormat = 'plain' | 'relay-csv' | 'geofeed' | 'aws-json' | 'google-json' | 'oracle-json';

/** The lines that are not blank or a comment, trimmed. */
function dataLines(text: string): string[] {
  const out: string[] = [];
  for (const raw of text.split('\n')) {
    const line = raw.trim();
    if (line === '' || line.startsWith('#')) continue;
    out.push(line);
  }
  return out;
}

const Aws = z.object({
  prefixes: z.array(z.object({ ip_prefix: z.string() })),
  ipv6_prefixes: z.array(z.object({ ipv6_prefix: z.string() })),
});
const Google = z.object({ prefixes: z.array(z.object({ ipv4Prefix: z.optional(z.string()), ipv6Prefix: z.optional(z.string()) })) });
const Oracle = z.object({ regions: z.array(z.object({ cidrs: z.array(z.object({ cidr: z.string() })) })) });

function json(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    throw new Error(`not JSON (starts "${text.slice(0, 40).replace(/\s+/g, ' ')}")`);
  }
}

function shaped<T>(schema: z.ZodMiniType<T>, text: string, what: string): T {
  const parsed = schema.safeParse(json(text));
  if (!parsed.success) throw new Error(`not ${what}`);
  return parsed.data;
}

/** Apple's place columns as one label (no comma: it is the line's last field): 'London (GB)', the city, else the region. */
function relayPlace(fields: string[]): string {
  const [, country = '', region = '', city = ''] = fields.map((f) => f.trim());
  const place = city || region;
  return place && country ? `${place} (${country})` : place || country;
}

/**
 * The prefixes of one or more upstream documents of a format, as list lines labelled with
 * `service` (or, for Apple's CSV, each range's place). Throws when a JSON document is not
 * its format's.
 */
export function toListLines(format: ListFormat, bodies: readonly string[], service = ''): string[] {
  const label = (prefix: string) => (service ? `${prefix},${service}` : prefix);
  const lines: string[] = [];
  for (const body of bodies) {
    switch (format) {
      case 'plain':
        for (const line of dataLines(body)) lines.push(label(line.split(/[\s,]/)[0]!));
        break;
      case 'relay-csv':
        for (const line of dataLines(body)) {
          const fields = line.split(',');
          const place = relayPlace(fields);
          lines.push(place ? `${fields[0]!.trim()},${place}` : fields[0]!.trim());
        }
        break;
      case 'geofeed':
        for (const line of dataLines(body)) lines.push(label(line.split(',')[0]!.trim()));
        break;
      case 'aws-json': {
        const doc = shaped(Aws, body, "AWS's ip-ranges.json");
        for (const p of doc.prefixes) lines.push(label(p.ip_prefix));
        for (const p of doc.ipv6_prefixes) lines.push(label(p.ipv6_prefix));
        break;
      }
      case 'google-json':
        for (const p of shaped(Google, body, "Google Cloud's cloud.json").prefixes) {
          const prefix = p.ipv4Prefix ?? p.ipv6Prefix;
          if (prefix) lines.push(label(prefix));
        }
        break;
      case 'oracle-json':
        for (const region of shaped(Oracle, body, "Oracle's public_ip_ranges.json").regions) {
          for (const c of region.cidrs) lines.push(label(c.cidr));
        }
        break;
    }
  }
  return lines;
}
