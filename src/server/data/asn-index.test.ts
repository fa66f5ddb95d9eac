import { describe, expect, it } from 'vitest';
import { parseIp } from '../../lib/ip-address.ts';
import { ASN_CONTAINER, AsnIndex } from './asn-index.ts';

// Small CSVs in the package's `-num` format: numeric ranges, inclusive; org quoted when it
// holds a comma, "" for a quote; one CRLF line; an overlap like the one in the real data.
const V4 = [
  '16777216,16777471,13335,"Cloudflare, Inc."',
  '16778240,16779263,38803,Gtelecom Pty Ltd',
  '16779264,16781311,2519,"LLC ""SPUTNIK"""\r',
  '16781312,16785407,2519,"LLC ""SPUTNIK"""',
  '16785408,16800000,749,DoD',
  '16790000,16810000,721,DoD NIC',
  '',
].join('\n');
const V6 = [
  '42540488161975842760550356425300246528,42540488241204005274814694018844196863,6939,Hurricane Electric LLC',
  '42541956123769884636017138956568135680,42541956204518677052306281862427050907,15169,Google LLC',
].join('\n');

function find(index: AsnIndex, ip: string): [number, string] | null {
  const parsed = parseIp(ip)!;
  let row: number;
  if (parsed.version === 4) row = index.find4(parsed.value);
  else {
    const v = parsed.value;
    row = index.find6(new Uint32Array([96n, 64n, 32n, 0n].map((s) => Number(BigInt.asUintN(32, v >> s)))));
  }
  return row < 0 ? null : [index.asn(row), index.orgs[index.orgId(row)]!];
}

describe('AsnIndex', () => {
  const index = AsnIndex.compile(V4, V6, 'test-1');

  it.each([
    ['the first address of a range', '1.0.0.0', [13335, 'Cloudflare, Inc.']],
    ['the last address of a range (inclusive)', '1.0.0.255', [13335, 'Cloudflare, Inc.']],
    ['a gap between ranges', '1.0.1.0', null],
    ['a quoted name with "" escapes', '1.0.8.1', [2519, 'LLC "SPUTNIK"']],
    ['a line ending in CRLF', '1.0.8.0', [2519, 'LLC "SPUTNIK"']],
    ['the later of two overlapping ranges', '1.0.65.0', [721, 'DoD NIC']],
    ['the earlier range before the overlap', '1.0.40.0', [749, 'DoD']],
    ['an address below every range', '0.255.255.255', null],
    ['an address above every range', '200.0.0.1', null],
    ['an IPv6 range start', '2001::', [6939, 'Hurricane Electric LLC']],
    ['inside an IPv6 range', '2001:4860:4860::8888', [15169, 'Google LLC']],
    ['an IPv6 gap', '2001:4000::1', null],
    ['below every IPv6 range', '::2', null],
  ])('answers %s (%s)', (_, ip, expected) => expect(find(index, ip)).toEqual(expected));

  it('stores each organisation name once', () => {
    expect(index.orgs.filter((org) => org === 'LLC "SPUTNIK"')).toHaveLength(1);
    expect(index.v4Count).toBe(6);
    expect(index.v6Count).toBe(2);
  });

  it('round-trips through its binary form, version included', () => {
    const loaded = AsnIndex.load(index.serialize())!;
    expect(loaded.version).toBe('test-1');
    for (const ip of ['1.0.0.7', '1.0.8.1', '1.0.65.0', '2001:4860:4860::8888', '1.0.1.0']) {
      expect(find(loaded, ip)).toEqual(find(index, ip));
    }
  });

  it('loads from an unaligned buffer', () => {
    const bytes = index.serialize();
    const shifted = new Uint8Array(bytes.length + 1).subarray(1);
    shifted.set(bytes);
    expect(find(AsnIndex.load(shifted)!, '1.0.0.1')).toEqual([13335, 'Cloudflare, Inc.']);
  });

  it.each([
    ['an empty file', new Uint8Array(0)],
    ['a file of the former layout (its magic \'!ASN\' a word, format 1)', new Uint8Array(Uint32Array.of(0x4e534121, 1, 0, 0, 0, 0, 0, 0).buffer)],
    ['random bytes', new Uint8Array(4096).map((_, i) => (i * 7919) & 255)],
    ['a truncated index', new Uint8Array(AsnIndex.compile(V4, V6, 'x').serialize().subarray(0, 100))],
  ])('refuses %s', (_, bytes) => expect(AsnIndex.load(bytes)).toBeUndefined());

  it('refuses an index whose last network names an organisation past its list', () => {
    const good = AsnIndex.compile(V4, V6, 'x');
    const bytes = good.serialize();
    // The organisation ids' part, as the container's header places it.
    const headerLength = bytes.readUInt32LE(8);
    const [offset, length] = (JSON.parse(bytes.toString('utf8', 12, 12 + headerLength)) as { parts: Record<string, [number, number]> }).parts.orgIds!;
    const lastId = Math.ceil((12 + headerLength) / 8) * 8 + offset + length - 4;
    for (const [id, loads] of [[good.orgs.length - 1, true], [good.orgs.length, false]] as const) {
      new DataView(bytes.buffer, bytes.byteOffset).setUint32(lastId, id, true);
      expect(AsnIndex.load(bytes) !== undefined).toBe(loads);
    }
  });

  it('agrees with a plain scan over thousands of ranges spread across many /16 buckets', () => {
    let seed = 7;
    const next = () => (seed = (Math.imul(seed, 1103515245) + 12345) >>> 0);
    const v4: string[] = [];
    const v6: string[] = [];
    const ranges: [bigint, bigint, number][] = [];
    let at = 1n << 20n;
    for (let i = 0; i < 3000; i++) {
      at += BigInt(next() % 300_000);
      const end = at + BigInt(next() % 200_000);
      ranges.push([at, end, i]);
      v4.push(`${at},${end},${i},Org ${i % 50}`);
      // The same shape in IPv6, scaled into the top 32 bits.
      v6.push(`${at << 96n},${(end << 96n) | ((1n << 96n) - 1n)},${i},Org ${i % 50}`);
      at = end + 1n;
    }
    const index = AsnIndex.compile(v4.join('\n'), v6.join('\n'), 'fuzz');
    const scan = (a: bigint) => ranges.find(([s, e]) => s <= a && a <= e)?.[2] ?? -1;
    for (let i = 0; i < 5000; i++) {
      const a = BigInt(next() % Number(at + 1000n));
      const row4 = index.find4(Number(a));
      const row6 = index.find6(new Uint32Array([Number(a), next(), next(), next()]));
      expect(row4 < 0 ? -1 : index.asn(row4)).toBe(scan(a));
      expect(row6 < 0 ? -1 : index.asn(row6)).toBe(scan(a));
    }
  });

  it.each([
    ['a line with too few fields', '1,2,3\n'],
    ['rows out of order', '200,300,1,A\n100,150,2,B\n'],
  ])('rejects a CSV with %s', (_, csv) => expect(() => AsnIndex.compile(csv, '', 'x')).toThrow(/ASN CSV/));
});

describe('AsnIndex.load refuses a container whose parts do not agree', () => {
  const good = AsnIndex.compile(V4, V6, 'x');
  const parts = () => ASN_CONTAINER.decode(good.serialize())!;
  it.each<[string, (p: ReturnType<typeof parts>) => void]>([
    ['IPv4 ends one short of the starts', (p) => { p.end4 = p.end4.subarray(1); }],
    ['IPv6 ends one range short of the starts', (p) => { p.end6 = p.end6.subarray(4); }],
    ['IPv6 starts not in whole ranges of four words', (p) => { p.start6 = p.start6.subarray(1); p.end6 = p.end6.subarray(1); }],
    ['one AS number short of the rows', (p) => { p.asns = p.asns.subarray(1); }],
    ['one organisation id short of the rows', (p) => { p.orgIds = p.orgIds.subarray(1); }],
  ])('%s', (_, damage) => {
    const p = parts();
    expect(AsnIndex.load(ASN_CONTAINER.encode(p))).toBeDefined();
    damage(p);
    expect(AsnIndex.load(ASN_CONTAINER.encode(p))).toBeUndefined();
  });
});
