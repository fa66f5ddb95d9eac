/**
 * What a PTR answer may be before the site shows it: a host name as DNS defines one
 * (at most 253 characters, labels of 1-63 letters, digits, `-` or `_`). Anything else,
 * a 10 KB answer or one with control characters or markup, is refused whole rather than
 * cut or escaped: a name that is not a name tells the visitor nothing true.
 */

/** Longest host name in its text form (255 octets on the wire, less the labels' length bytes). */
export const MAX_HOSTNAME_LENGTH = 253;

const LABEL = /^[a-z0-9_](?:[a-z0-9_-]{0,61}[a-z0-9_])?$/i;

/**
 * The name a PTR answer gives, lower-cased and without its trailing dot, or null when it
 * is not a host name.
 */
export function cleanHostname(name: string): string | null {
  const text = name.endsWith('.') ? name.slice(0, -1) : name;
  if (text.length === 0 || text.length > MAX_HOSTNAME_LENGTH) return null;
  const labels = text.split('.');
  return labels.every((label) => LABEL.test(label)) ? text.toLowerCase() : null;
}
