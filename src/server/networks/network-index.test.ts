import { existsSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseIp } from '../../lib/ip-address.ts';
import { writeMmdb } from '../../../tests/fixtures/mmdb-writer.ts';
import { AsnIndex } from '../data/asn-index.ts';
import { MmdbReader } from '../mmdb/reader.ts';
import { buildNetworkData } from './build.ts';
import { decodeNetworkIndex, encodeNetworkIndex } from './index-file.ts';
import { loadNetworkIndex, networkDataVersion, rebuiltNetworkFile } from './load.ts';
import { NetworkIndex } from './network-index.ts';

const n4 = (ip: string) => (parseIp(ip) as { value: number }).value;
const n6 = (ip: string) => (parseIp(ip) as { value: bigint }).value;
const row4 = (first: string, last: string, asn: number, org: string) => `${n4(first)},${n4(last)},${asn},"${org}"`;
const row6 = (first: string, last: string, asn: number, org: string) => `${n6(first)},${n6(last)},${asn},${org}`;

// Rows sorted by start, as the package's are. AS64500's first two ranges touch (one /23);
// AS64503 spells its name two ways, the larger range's wins.
const V4 = [
  row4('10.0.0.0', '10.0.0.255', 64500, 'Example Hosting'),
  row4('10.0.1.0', '10.0.1.255', 64500, 'Example Hosting'),
  row4('10.0.4.0', '10.0.4.9', 64500, 'Example Hosting'),
  row4('172.16.0.0', '172.16.0.3', 64503, 'Old Name'),
  row4('172.16.1.0', '172.16.1.255', 64503, 'New Name'),
  row4('192.0.2.0', '192.0.2.255', 64501, 'Ünïcode Telecom'),
].join('\n');
const V6 = [
  row6('2001:db8::', '2001:db8:ffff:ffff:ffff:ffff:ffff:ffff', 64501, 'Ünïcode Telecom'),
  row6('2001:db9::', '2001:db9:0:ffff:ffff:ffff:ffff:ffff', 64502, 'IPv6 Only Net'),
].join('\n');

const place = (city: string, region: string, country: string) => ({ city, state1: region, country_code: country, latitude: 1.5, longitude: 2.25 });
const PLACES = writeMmdb([
  ['10.0.0.0/24', place('Berlin', 'Berlin', 'DE')],
  ['10.0.1.0/24', place('Paris', 'Île-de-France', 'FR')],
  ['10.0.4.0/24', { country_code: 'DE' }],
  ['172.16.0.0/16', place('Madrid', 'Madrid', 'ES')],
  ['192.0.2.0/25', place('Madrid', 'Madrid', 'ES')],
  ['2001:db9::/32', place('Tokyo', 'Tokyo', 'JP')],
], 'dbip-city fixture');

function fixture() {
  const asn = AsnIndex.compile(V4, V6, '1.0.0');
  const reader = new MmdbReader(PLACES);
  return { asn, data: buildNetworkData(asn, { v4: reader, v6: reader }, 'fixture') };
}

describe('the network index, built', () => {
  it('merges touching ranges and counts addresses and prefixes', () => {
    const index = new NetworkIndex(fixture().data);
    const net = index.get(64500)!;
    expect(net).toMatchObject({ asn: 64500, name: 'Example Hosting', v4Addresses: 522, v4Prefixes: 3, v6Prefixes: 0, v6Blocks: 0 });
    expect([...index.ranges4(net.slot)]).toEqual([n4('10.0.0.0'), n4('10.0.1.255'), n4('10.0.4.0'), n4('10.0.4.9')]);
    expect(index.prefixes(net.slot, 4)).toEqual(['10.0.0.0/23', '10.0.4.0/29', '10.0.4.8/31']);
    expect(index.prefixes(net.slot, 4, 2)).toEqual(['10.0.0.0/23', '10.0.4.0/29']);
  });

  it('sums places by country and city over the addresses, largest first', () => {
    const net = new NetworkIndex(fixture().data).get(64500)!;
    expect(net.placeUnit).toBe('ipv4');
    expect(net.placed).toBe(522);
    expect(net.countries.map((c) => [c.countryCode, c.count])).toEqual([['DE', 266], ['FR', 256]]);
    expect(net.cities).toEqual([
      { city: 'Berlin', region: 'Berlin', countryCode: 'DE', latitude: 1.5, longitude: 2.25, count: 256, share: 256 / 522 },
      { city: 'Paris', region: 'Île-de-France', countryCode: 'FR', latitude: 1.5, longitude: 2.25, count: 256, share: 256 / 522 },
    ]);
  });

  it('counts unplaced addresses in neither the places nor the shares', () => {
    const net = new NetworkIndex(fixture().data).get(64501)!;
    expect(net).toMatchObject({ v4Addresses: 256, placed: 128, v6Prefixes: 1, v6Blocks: 65536 });
    expect(net.countries).toEqual([{ countryCode: 'ES', count: 128, share: 1 }]);
  });

  it('places a network without IPv4 by its /48s', () => {
    const index = new NetworkIndex(fixture().data);
    const net = index.get(64502)!;
    expect(net).toMatchObject({ v4Addresses: 0, v6Prefixes: 1, v6Blocks: 1, placeUnit: 'ipv6', placed: 1 });
    expect(net.cities.map((c) => c.city)).toEqual(['Tokyo']);
    expect(index.prefixes(net.slot, 6)).toEqual(['2001:db9::/48']);
  });

  it("takes a network's name from its largest range", () => {
    expect(new NetworkIndex(fixture().data).get(64503)!.name).toBe('New Name');
  });

  it('knows no network the data has no range of', () => {
    const index = new NetworkIndex(fixture().data);
    for (const asn of [0, 1, 64499, 64504, 4294967295]) expect(index.get(asn)).toBeUndefined();
  });

  it('builds networks without places when there is no place data', () => {
    const { asn } = fixture();
    const net = new NetworkIndex(buildNetworkData(asn, { v4: undefined, v6: undefined }, 'x')).get(64500)!;
    expect(net).toMatchObject({ v4Addresses: 522, placeUnit: null, placed: 0, countries: [], cities: [] });
  });
});

describe('the network index, ranked and searched', () => {
  const index = new NetworkIndex(fixture().data);
  const asns = (list: Array<{ asn: number }>) => list.map((n) => n.asn);

  it('ranks networks by IPv4 addresses, then /48s', () => {
    expect(asns(index.largest(10))).toEqual([64500, 64503, 64501, 64502]);
    expect(asns(index.largest(2))).toEqual([64500, 64503]);
  });

  it("ranks a country's networks by their IPv4 addresses there", () => {
    expect(index.largestIn('ES', 5).map((n) => [n.asn, n.inCountry])).toEqual([[64503, 260], [64501, 128]]);
    expect(index.largestIn('JP', 5)).toEqual([]);
    expect(index.largestIn('ZZ', 5)).toEqual([]);
  });

  it.each<[string, string, number[]]>([
    ['its number', '64501', [64501]],
    ['its number with AS', 'AS64502', [64502]],
    ['its number, lower case, with a space', 'as 64500', [64500]],
    ['a number no network has', '64599', []],
    ['the whole name, folded', 'unicode telecom', [64501]],
    ['a word start', 'tele', [64501]],
    ['inside a word', 'osting', [64500]],
    ['case and accents', 'ÜNÏCODE', [64501]],
    ['a name that ranks by size: larger first', 'name', [64503]],
    ['what matches nothing', 'zzz', []],
    ['emoji alone', '😀', []],
  ])('finds networks by %s', (_, query, expected) => {
    expect(asns(index.search(query, 10))).toEqual(expected);
  });

  it('puts the number first, whole names before name starts before word starts before the rest, larger first within each', () => {
    const data = fixture().data;
    // Names: 'Example Hosting' (largest), 'New Name', 'Ünïcode Telecom', 'IPv6 Only Net'.
    const search = new NetworkIndex(data);
    // 'new name' starts with it; 'ipv6 only net' has a word that does ('net', after an 'n' inside 'only'); the others hold it.
    expect(asns(search.search('n', 10))).toEqual([64503, 64502, 64500, 64501]);
    expect(asns(search.search('e', 10))).toEqual([64500, 64503, 64501, 64502]);
    expect(asns(search.search('e', 2))).toEqual([64500, 64503]);
    expect(asns(search.search('new name', 10))).toEqual([64503]);
  });

  it('lists a network found by its number once, even when its name matches too', () => {
    const data = fixture().data;
    expect(asns(new NetworkIndex(data).search('64501', 10))).toEqual([64501]);
  });
});

describe('the network index file', () => {
  it('reads back what it wrote', () => {
    const { data } = fixture();
    const back = decodeNetworkIndex(encodeNetworkIndex(data), 'fixture')!;
    expect(back).toBeDefined();
    const a = new NetworkIndex(data);
    const b = new NetworkIndex(back);
    for (const asn of [64500, 64501, 64502, 64503]) expect(b.get(asn)).toEqual(a.get(asn));
    expect(b.search('tele', 5)).toEqual(a.search('tele', 5));
    expect(b.largest(5)).toEqual(a.largest(5));
  });

  it('refuses a file built from other data, or damaged anywhere', () => {
    const bytes = encodeNetworkIndex(fixture().data);
    expect(decodeNetworkIndex(bytes, 'other data')).toBeUndefined();
    expect(decodeNetworkIndex(bytes.subarray(0, bytes.length - 8))).toBeUndefined();
    expect(decodeNetworkIndex(Buffer.from('not an index at all'))).toBeUndefined();
    const wrongMagic = Buffer.from(bytes);
    wrongMagic.write('NETIDX01', 0, 'latin1');
    expect(decodeNetworkIndex(wrongMagic)).toBeUndefined();
    // A name id past the names (the first one, in the nameIds part).
    const header = JSON.parse(bytes.toString('utf8', 12, 12 + bytes.readUInt32LE(8))) as { parts: Record<string, [number]> };
    const start = Math.ceil((12 + bytes.readUInt32LE(8)) / 8) * 8;
    const badId = Buffer.from(bytes);
    badId.writeUInt32LE(999, start + header.parts.nameIds![0]);
    expect(decodeNetworkIndex(badId)).toBeUndefined();
  });

  it('keeps a list of one empty string apart from an empty list', () => {
    const { data } = fixture();
    const back = decodeNetworkIndex(encodeNetworkIndex({ ...data, cityRegions: [''], cityRegionIds: new Uint32Array(data.cityRegionIds.length) }))!;
    expect(back.cityRegions).toEqual(['']);
  });
});

describe('loading the network index', () => {
  const dir = () => mkdtempSync(path.join(tmpdir(), 'networks-'));
  const places = () => {
    const file = path.join(dir(), 'places.mmdb');
    writeFileSync(file, PLACES);
    return { v4: file, v6: file, version: 'p1' };
  };

  it('loads the built file when it was built from the data at hand', async () => {
    const { asn } = fixture();
    const file = path.join(dir(), 'network-index.bin');
    const version = networkDataVersion(asn.version, 'p1');
    writeFileSync(file, encodeNetworkIndex({ ...fixture().data, version }));
    const handle = loadNetworkIndex({ asn, places: places(), file, warn: () => {} });
    const index = await handle.ready;
    expect(index).toBeInstanceOf(NetworkIndex);
    expect(handle.rebuiltBecause()).toBeUndefined();
    expect(handle.current()).toBe(index);
  });

  it('builds the index in a child process when the file is missing, and says why', async () => {
    const { asn } = fixture();
    const warnings: string[] = [];
    const handle = loadNetworkIndex({ asn, places: places(), file: path.join(dir(), 'none.bin'), warn: (m) => warnings.push(m) });
    expect(handle.current()).toBeUndefined();
    const index = (await handle.ready) as NetworkIndex;
    expect(index.get(64500)).toMatchObject({ v4Addresses: 522, countries: [{ countryCode: 'DE', count: 266 }, { countryCode: 'FR', count: 256 }] });
    expect(handle.rebuiltBecause()).toMatch(/none\.bin is missing/);
    expect(warnings.join('\n')).toMatch(/building the network index/);
  }, 30_000);

  it('rebuilds a file built from other data, and builds without places when the place data is unavailable', async () => {
    const { asn, data } = fixture();
    const file = path.join(dir(), 'network-index.bin');
    writeFileSync(file, encodeNetworkIndex({ ...data, version: 'stale' }));
    const handle = loadNetworkIndex({ asn, places: new Error('no place data'), file, inThread: true, warn: () => {} });
    const index = (await handle.ready) as NetworkIndex;
    expect(handle.rebuiltBecause()).toMatch(/built from other data/);
    expect(index.get(64500)).toMatchObject({ v4Addresses: 522, placeUnit: null });
  });

  it('is an Error without the ASN data', async () => {
    const handle = loadNetworkIndex({ asn: undefined, places: places(), warn: () => {} });
    expect(await handle.ready).toBeInstanceOf(Error);
    expect(handle.readyMs()).toBeGreaterThanOrEqual(0);
    expect(handle.describe()).toBe('missing (the ASN data is not loaded)');
  });

  it('says how many networks it holds on /healthz, and why it was built', async () => {
    const { asn } = fixture();
    const file = path.join(dir(), 'none.bin');
    const handle = loadNetworkIndex({ asn, places: places(), file, inThread: true, warn: () => {} });
    await handle.ready;
    expect(handle.describe()).toBe(`ok (4 networks) (rebuilt: ${file} is missing)`);
  });

  it('keeps the index it built under DATA_DIR, where the next start finds it', async () => {
    const { asn } = fixture();
    const dataDir = dir();
    const file = path.join(dir(), 'none.bin');
    const first = loadNetworkIndex({ asn, places: places(), file, dataDir, warn: () => {} });
    expect(((await first.ready) as NetworkIndex).size).toBe(4);
    expect(existsSync(rebuiltNetworkFile(dataDir))).toBe(true);
    const warnings: string[] = [];
    const again = loadNetworkIndex({ asn, places: places(), file, dataDir, inThread: true, warn: (m) => warnings.push(m) });
    expect(((await again.ready) as NetworkIndex).get(64500)?.name).toBe('Example Hosting');
    expect(again.rebuiltBecause()).toBeUndefined();
    expect(again.describe()).toBe('ok (4 networks)');
    expect(warnings).toEqual([]);
  }, 30_000);

  it('says the place data it goes without when it builds', async () => {
    const { asn } = fixture();
    const file = path.join(dir(), 'none.bin');
    const warnings: string[] = [];
    await loadNetworkIndex({ asn, places: new Error('no place data'), file, inThread: true, warn: (m) => warnings.push(m) }).ready;
    expect(warnings).toEqual([
      `${file} is missing: building the network index from the data now (npm run build writes the file)`,
      'place data unavailable (no place data): networks are listed without places',
    ]);
  });
});
