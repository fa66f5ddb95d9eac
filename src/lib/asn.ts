/**
 * What an AS number is, and the path of a network's page (`/AS15169`): shared by the
 * server's network routes and the islands that link a record's ASN to its page, so kept
 * apart from the network record's schema (network-record.ts), which islands do not need.
 */

/** The largest AS number (32-bit, RFC 6793). */
export const AS_MAX = 4294967295;

/**
 * The AS number a text names: digits only ('15169', or 'AS15169' / 'as15169' when
 * `prefixed` allows it), at most 10 of them, from 0 to AS_MAX; undefined for anything else.
 * Leading zeros are allowed ('015169' is 15169): the caller decides whether to redirect.
 */
export function parseAsNumber(text: string, prefixed = false): number | undefined {
  const digits = prefixed && /^as/i.test(text) ? text.slice(2) : text;
  if (!/^\d{1,10}$/.test(digits)) return undefined;
  const value = Number(digits);
  return value <= AS_MAX ? value : undefined;
}

/** The path of a network's page: `/AS15169`. */
export const networkPath = (asn: number): string => `/AS${asn}`;

/**
 * The page of the network a record's `asn` field names ('AS15169' → '/AS15169'), or
 * undefined when it names none ('Unknown', a reserved address).
 */
export function asnPath(asn: string): string | undefined {
  const value = /^AS\d+$/.test(asn) ? parseAsNumber(asn, true) : undefined;
  return value === undefined ? undefined : networkPath(value);
}
