/**
 * ifconfig.co's `/json` field names, derived from our record, so that a script written for
 * ifconfig.co reads ours unchanged (but `country`, a code here and a name there). They are
 * derived as ifconfig.co's server (echoip) derives them: a field it would leave out (empty)
 * is left out here too; `ip_decimal` is a number for IPv4 but a string for IPv6, where a
 * 128-bit number would lose its last digits in every JSON parser that reads numbers as
 * doubles. docs/api.md ("ifconfig.co's fields") lists the differences.
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
    // Digit by digit: splitting made four strings and two arrays for every /json answer.
    let value = 0;
    let octet = 0;
    for (let i = 0; i < ip.length; i++) {
      const code = ip.charCodeAt(i);
      if (code === 46) {
        value = value * 256 + octet;
        octet = 0;
      } else octet = octet * 10 + code - 48;
    }
    return value * 256 + octet;
  }
  const halves = ip.split('::');
  const head = halves[0]!;
  const tail = halves[1] ?? '';
  const before = head ? head.split(':') : [];
  const after = tail ? tail.split(':') : [];
  // The 32 hex digits read as one BigInt: a BigInt per group took twice as long.
  let hex = '';
  for (const group of before) hex += group.padStart(4, '0');
  // Without '::' the address has its 8 groups already, and nothing is filled in.
  for (let fill = 8 - before.length - after.length; fill > 0; fill--) hex += '0000';
  for (const group of after) hex += group.padStart(4, '0');
  return BigInt(`0x${hex}`).toString();
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
