/**
 * ifconfig.co's `/json` field names, derived from our record, so that a script written for
 * ifconfig.co reads ours unchanged (but `country`, a code here and a name there). They are
 * derived as ifconfig.co's server (echoip) derives them: a field it would leave out (empty)
 * is left out here too; `ip_decimal` is a number for IPv4 but a string for IPv6, where a
 * 128-bit number would lose its last digits in every JSON parser that reads numbers as
 * doubles. README ("ifconfig.co's fields") lists the differences.
 */
import { UNKNOWN, type IpInfo } from './record.ts';

/** ifconfig.co's `user_agent`: the header split into product, version and comment, each left out when empty. */
export interface IfconfigUserAgent {
  product?: string;
  version?: string;
  comment?: string;
  raw_value?: string;
}

/** The ifconfig.co fields that depend on the address alone (`hostname` and `user_agent` are added per request). */
export interface IfconfigFields {
  ip_decimal: number | string;
  country_iso?: string;
  country_eu: boolean;
  region_name?: string;
  zip_code?: string;
  time_zone?: string;
}

/** Member states of the European Union (ISO 3166-1 alpha-2), which ifconfig.co marks `country_eu`. */
export const EU_COUNTRIES: ReadonlySet<string> = new Set([
  'AT', 'BE', 'BG', 'CY', 'CZ', 'DE', 'DK', 'EE', 'ES', 'FI', 'FR', 'GR', 'HR', 'HU',
  'IE', 'IT', 'LT', 'LU', 'LV', 'MT', 'NL', 'PL', 'PT', 'RO', 'SE', 'SI', 'SK',
]);

/**
 * The address as one number: an IPv4 address's 32 bits (a JSON number), an IPv6
 * address's 128 bits as decimal digits (a string). `ip` is the record's canonical text.
 */
export function ipDecimal(ip: string): number | string {
  if (!ip.includes(':')) {
    const [a = 0, b = 0, c = 0, d = 0] = ip.split('.').map(Number);
    return ((a * 256 + b) * 256 + c) * 256 + d;
  }
  const halves = ip.split('::');
  const head = halves[0]!;
  const tail = halves[1] ?? '';
  const groups = (part: string) => (part ? part.split(':') : []);
  // Without '::' the address has its 8 groups already, and nothing is filled in.
  const fill = 8 - groups(head).length - groups(tail).length;
  const all = [...groups(head), ...Array<string>(fill).fill('0'), ...groups(tail)];
  return all.reduce((sum, group) => sum * 65536n + BigInt(`0x${group}`), 0n).toString();
}

/**
 * A User-Agent as ifconfig.co splits it: the product before the first `/`; after it, a
 * version when it starts with a digit (up to the first space, the rest the comment), else
 * all of it the comment. Without a `/`, the product is the first word and the rest the
 * comment. Undefined for an empty header (ifconfig.co leaves the field out).
 */
export function ifconfigUserAgent(raw: string | null | undefined): IfconfigUserAgent | undefined {
  if (!raw) return undefined;
  const slash = raw.indexOf('/');
  let product: string;
  let version = '';
  let comment: string;
  if (slash >= 0) {
    product = raw.slice(0, slash);
    const rest = raw.slice(slash + 1);
    if (/^[0-9]/.test(rest)) {
      const words = rest.split(' ');
      version = words[0]!;
      comment = words.slice(1).join(' ');
    } else comment = rest;
  } else {
    const space = raw.indexOf(' ');
    product = space < 0 ? raw : raw.slice(0, space);
    comment = space < 0 ? '' : raw.slice(space + 1);
  }
  const ua: IfconfigUserAgent = {};
  if (product) ua.product = product;
  if (version) ua.version = version;
  if (comment) ua.comment = comment;
  ua.raw_value = raw;
  return ua;
}

// An empty text is left out by the callers' truthiness checks, as 'Unknown' is here.
const known = (value: string): string | undefined => (value === UNKNOWN ? undefined : value);

/** The address's ifconfig.co fields from our record; unknown values are left out, as ifconfig.co leaves them. */
export function ifconfigFields(record: IpInfo): IfconfigFields {
  const fields: IfconfigFields = { ip_decimal: ipDecimal(record.ip), country_eu: EU_COUNTRIES.has(record.country_code) };
  const iso = known(record.country_code);
  if (iso) fields.country_iso = iso;
  const region = known(record.region);
  if (region) fields.region_name = region;
  const zip = known(record.postal);
  if (zip) fields.zip_code = zip;
  const zone = known(record.timezone);
  if (zone) fields.time_zone = zone;
  return fields;
}
