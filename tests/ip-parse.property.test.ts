/**
 * fast-check: src/lib/ip-address.ts `parseIp` accepts exactly what Node's net.isIP accepts,
 * as src/server/lookup/engine.ts counts on (it asks net.isIP only after a zone id, where
 * parseIp is laxer). Over random strings of the characters addresses are made of, over
 * addresses of every form fast-check writes (compressed, with an IPv4 tail, IPv4 with
 * octal and hex parts), and over those addresses with one character added, dropped or
 * changed. Where both accept, the family and the value agree: IPv4 text is already
 * canonical, IPv6 is compared with the WHATWG URL parser's canonical form.
 * FUZZ_RUNS sets the scale (runs per property: 20 times it; CI sets 10,000).
 */
import { isIP } from 'node:net';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { formatIp, parseIp } from '../src/lib/ip-address.ts';

const RUNS = Number(process.env.FUZZ_RUNS || 300) * 20;
const TIMEOUT = Math.max(60_000, RUNS * 2);

/** Characters of address text, and a few that must never be taken for one. */
const ADDRESS_CHARS = [...'0123456789abcdefABCDEF:.', ' ', '%', 'x', 'g', '/', '[', ']', '-', '+', '\t', '\n', '０', '٣'];
const addressLike = fc.string({ unit: fc.constantFrom(...ADDRESS_CHARS), maxLength: 48 });
const written = fc.oneof(fc.ipV4(), fc.ipV4Extended(), fc.ipV6());
/** An address with one character added, dropped or replaced, at any place. */
const nearMiss = fc.tuple(written, fc.nat(), fc.constantFrom(...ADDRESS_CHARS), fc.constantFrom('add', 'drop', 'replace')).map(
  ([text, at, c, edit]) => {
    const i = at % (text.length + 1);
    if (edit === 'add') return text.slice(0, i) + c + text.slice(i);
    return text.slice(0, i) + (edit === 'replace' ? c : '') + text.slice(i + 1);
  },
);
const anything = fc.oneof(addressLike, written, nearMiss, fc.string({ maxLength: 48 }), fc.string({ unit: 'binary', maxLength: 48 }));

/** Checks one text against net.isIP, trimmed first as the engine trims it. */
function agrees(raw: string): void {
  const text = raw.trim();
  const parsed = parseIp(text);
  const family = isIP(text);
  if (text.includes('%')) {
    // After a zone id parseIp is laxer, never stricter: what net.isIP takes, it takes.
    if (family !== 0) expect(parsed, text).toBeDefined();
    return;
  }
  expect(parsed === undefined ? 0 : 'accepted', text).toBe(family === 0 ? 0 : 'accepted');
  if (!parsed) return;
  if (family === 4) {
    expect(parsed.version, text).toBe(4);
    expect(formatIp(parsed), text).toBe(text);
    return;
  }
  // IPv6; an IPv4-mapped one (::ffff:a.b.c.d) comes back as IPv4.
  const canonical = new URL(`http://[${text}]/`).hostname;
  const mapped = /^\[::ffff:([0-9a-f]{1,4}):([0-9a-f]{1,4})\]$/.exec(canonical);
  if (mapped) {
    const value = parseInt(mapped[1]!, 16) * 65536 + parseInt(mapped[2]!, 16);
    expect(parsed, text).toEqual({ version: 4, value });
  } else {
    expect(parsed.version, text).toBe(6);
    expect(`[${formatIp(parsed)}]`, text).toBe(canonical);
  }
}

describe('parseIp accepts what net.isIP accepts', () => {
  it.each([
    ['random strings of address characters', addressLike],
    ['addresses as fast-check writes them', written],
    ['addresses one character off', nearMiss],
    ['any strings', anything],
  ])('over %s', (_, texts) => {
    fc.assert(fc.property(texts, (text) => agrees(text)), { numRuns: RUNS });
  }, TIMEOUT);

  it.each([
    '1.2.3.4', '0.0.0.0', '255.255.255.255', '01.2.3.4', '1.2.3', '1.2.3.4.5', '256.1.1.1', '1.2.3.4 ',
    '::', '::1', '1::', '2001:db8::8:800:200c:417a', '::ffff:192.0.2.1', '::ffff:c000:201', '1:2:3:4:5:6:7:8',
    '1:2:3:4:5:6:7:8:9', '1::2::3', ':::', '1:2:3:4:5:6:1.2.3.4', '::1.2.3.4', '1.2.3.4::', 'fe80::1%eth0', 'fe80::1%',
    '::ffff:1.2.3.04', '12345::', 'g::', '', ':', '.',
  ])('%j', (text) => {
    agrees(text);
  });
});
