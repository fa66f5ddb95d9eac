/**
 * The known answers a data package must give before its folder replaces the one the engine
 * reads (update.ts): each database is opened the way the engine opens it and asked of
 * addresses whose answer has not changed in these databases' lifetime: Deutsche Telekom's
 * home networks (80.128.0.1 and 2003::1) are in Germany, Google's resolver (8.8.8.8 and
 * 2001:4860:4860::8888) is AS15169. An anycast address is not asked for a country: DB-IP
 * places Google's IPv6 resolver in Montreal, GeoLite2 in the United States. A package
 * whose databases do not open, are cut short or answer otherwise is refused, and the old
 * folder stays, so a restart never finds a broken database where a good one was.
 * Run in the unpacking child (unpack-child.ts); tested in package-check.test.ts.
 */
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { parseIp } from '../../lib/ip-address.ts';
import { AsnIndex } from '../data/asn-index.ts';
import { emptyPlace } from '../data/city-source.ts';
import { toWords } from '../data/sorted-ranges.ts';
import { openCitySource } from '../data/sources.ts';

/** The files of a package worth keeping: what the engine reads, the metadata and the licences, at the package's top. */
const KEPT = /(^package\.json$|-num\.csv$|\.mmdb$|LICENSE|EULA|MODIFICATIONS)/;
export const isKept = (file: string): boolean => !file.includes('/') && KEPT.test(file);

/** The addresses asked in each family, and what every real database says of them. */
export const KNOWN = {
  city: { v4: '80.128.0.1', v6: '2003::1', country: 'DE' },
  asn: { v4: '8.8.8.8', v6: '2001:4860:4860::8888', asn: 15169 },
} as const;

const v4 = (ip: string) => (parseIp(ip) as { value: number }).value;
const v6 = (ip: string) => toWords((parseIp(ip) as { value: bigint }).value, new Uint32Array(4));

/** Why a city database pair in `dir` (`<name>-ipv4.mmdb`, `<name>-ipv6.mmdb`) is not fit to serve; undefined when it is. */
async function cityProblem(dir: string, name: string): Promise<string | undefined> {
  const files = ['ipv4', 'ipv6'].map((family) => path.join(dir, `${name}-${family}.mmdb`));
  const missing = files.filter((file) => !existsSync(file)).map((file) => path.basename(file));
  if (missing.length) return `${missing.join(' and ')} missing`;
  const source = await openCitySource(name, files[0]!, files[1]!);
  if (source instanceof Error || source.families.length < 2) return `${name}'s databases do not open`;
  const place4 = emptyPlace();
  const place6 = emptyPlace();
  const { city } = KNOWN;
  if (!source.find4(v4(city.v4), place4) || place4.countryCode !== city.country) return `${name}-ipv4.mmdb does not place ${city.v4} in ${city.country}`;
  if (!source.find6(v6(city.v6), place6) || place6.countryCode !== city.country) return `${name}-ipv6.mmdb does not place ${city.v6} in ${city.country}`;
  return undefined;
}

/** Why the ASN CSVs in `dir` are not fit to serve; undefined when they are. */
function asnProblem(dir: string): string | undefined {
  const files = ['asn-ipv4-num.csv', 'asn-ipv6-num.csv'];
  const missing = files.filter((file) => !existsSync(path.join(dir, file)));
  if (missing.length) return `${missing.join(' and ')} missing`;
  const [text4, text6] = files.map((file) => readFileSync(path.join(dir, file), 'utf8'));
  const index = AsnIndex.compile(text4!, text6!, 'check');
  const { asn } = KNOWN;
  if (index.asn(index.find4(v4(asn.v4))) !== asn.asn) return `asn-ipv4-num.csv does not give ${asn.v4} to AS${asn.asn}`;
  if (index.asn(index.find6(v6(asn.v6))) !== asn.asn) return `asn-ipv6-num.csv does not give ${asn.v6} to AS${asn.asn}`;
  return undefined;
}

/**
 * Why the unpacked data package `name` in `dir` is not fit to serve (a few words, for the
 * log and the update's result); undefined when every database in it opens and answers.
 */
export async function packageProblem(name: string, dir: string): Promise<string | undefined> {
  if (name.endsWith('/asn')) return asnProblem(dir);
  const city = /\/([a-z0-9]+-city)-mmdb$/.exec(name)?.[1];
  return city ? cityProblem(dir, city) : `no check is known for ${name}`;
}
