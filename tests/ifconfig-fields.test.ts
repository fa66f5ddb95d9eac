/**
 * ifconfig.co's field names in /json against what ifconfig.co's server (echoip) derives
 * from the same MaxMind City record, the same address and the same User-Agent: one row per
 * address. The reference below restates echoip's rules in its own terms (the first English
 * name, the first subdivision, a metro code only in the US and above 0, the country's EU
 * flag, the registered country when the country is missing, the address's bytes as one
 * integer, the User-Agent split at its first `/`); our server answers from a City file that
 * holds these records alone (DB-IP left out, so every field comes from that file).
 * Where the two differ by design (docs/api.md, "ifconfig.co's fields"), the row says how.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { writeMmdb, type Value } from './fixtures/mmdb-writer.ts';
import { createTestApp, type AppRequestFn } from './support/app-harness.ts';

type Raw = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

const US = { iso_code: 'US', names: { en: 'United States' }, is_in_european_union: false };
/**
 * Per row, where ours differs by design: a record with a registered country alone is in
 * the EU by its code here (echoip reads the flag of `country` only, so it says false next to
 * `country_iso: "FR"`), and a country with a single zone gets that zone (merge-place.ts).
 */
const RECORDS: Array<[cidr: string, ip: string, record: Raw, oursDiffers?: Record<string, unknown>]> = [
  ['24.24.24.0/24', '24.24.24.24', {
    city: { names: { en: 'Syracuse' } }, country: US, postal: { code: '13221' },
    location: { latitude: 43.0483, longitude: -76.1468, time_zone: 'America/New_York', metro_code: 555 },
    subdivisions: [{ iso_code: 'NY', names: { en: 'New York' } }],
  }],
  ['81.2.69.0/24', '81.2.69.142', {
    city: { names: { en: 'London' } }, country: { iso_code: 'GB', names: { en: 'United Kingdom' } }, postal: { code: 'EC2V' },
    location: { latitude: 51.5142, longitude: -0.0931, time_zone: 'Europe/London', metro_code: 7 },
    subdivisions: [{ iso_code: 'ENG', names: { en: 'England' } }, { iso_code: 'WSM', names: { en: 'Westminster' } }],
  }],
  ['5.9.0.0/16', '5.9.10.11', {
    city: { names: { en: 'Falkenstein' } }, country: { iso_code: 'DE', names: { en: 'Germany' }, is_in_european_union: true },
    location: { latitude: 50.4777, longitude: 12.3649, time_zone: 'Europe/Berlin' },
    subdivisions: [{ iso_code: 'SN', names: { en: 'Saxony' } }],
  }],
  ['37.0.0.0/16', '37.0.1.2', { registered_country: { iso_code: 'FR', names: { en: 'France' }, is_in_european_union: true }, location: { latitude: 46, longitude: 2 } },
    { country_eu: true, time_zone: 'Europe/Paris' }],
  ['2a02:2e0::/32', '2a02:2e0::1', {
    city: { names: { en: 'Zurich' } }, country: { iso_code: 'CH', names: { en: 'Switzerland' } },
    location: { latitude: 47.3667, longitude: 8.55, time_zone: 'Europe/Zurich' }, subdivisions: [{ iso_code: 'ZH', names: { en: 'Zurich' } }],
  }],
];

/** echoip's value of each field for `record` (absent fields left out, as its JSON omits empty ones). */
function echoipDerives(ip: string, record: Raw, userAgent: string): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  const bytes = ip.includes(':')
    ? ip.split('::').map((half) => (half ? half.split(':') : [])).reduce((head, tail) => [...head, ...Array<string>(8 - head.length - tail.length).fill('0'), ...tail])
      .flatMap((group) => [parseInt(group, 16) >> 8, parseInt(group, 16) & 255])
    : ip.split('.').map(Number);
  out.ip_decimal = bytes.reduce((n, b) => n * 256n + BigInt(b), 0n).toString();
  const iso = record.country?.iso_code || record.registered_country?.iso_code;
  if (iso) out.country_iso = iso;
  out.country_eu = record.country?.is_in_european_union === true;
  const first = record.subdivisions?.[0];
  if (first?.names?.en) out.region_name = first.names.en;
  if (first?.iso_code) out.region_code = first.iso_code;
  if (record.location?.metro_code > 0 && record.country?.iso_code === 'US') out.metro_code = record.location.metro_code;
  if (record.postal?.code) out.zip_code = record.postal.code;
  if (record.location?.time_zone) out.time_zone = record.location.time_zone;
  const [product = '', rest] = [userAgent.split('/')[0], userAgent.includes('/') ? userAgent.slice(userAgent.indexOf('/') + 1) : undefined];
  const ua: Record<string, string> = {};
  if (rest === undefined) {
    const [word = '', ...more] = userAgent.split(' ');
    if (word) ua.product = word;
    if (more.length) ua.comment = more.join(' ');
  } else {
    if (product) ua.product = product;
    const [version = '', ...comment] = /^\d/.test(rest) ? rest.split(' ') : ['', rest];
    if (version) ua.version = version;
    if (comment.join(' ')) ua.comment = comment.join(' ');
  }
  if (userAgent) out.user_agent = { ...ua, raw_value: userAgent };
  return out;
}

const FIELDS = ['ip_decimal', 'country_iso', 'country_eu', 'region_name', 'region_code', 'metro_code', 'zip_code', 'time_zone', 'user_agent'] as const;

let request: AppRequestFn;
beforeAll(async () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'ifconfig-'));
  const file = path.join(dir, 'GeoIP2-City.mmdb');
  writeFileSync(file, writeMmdb(RECORDS.map(([cidr, , record]) => [cidr, record as Value]), 'GeoIP2-City'));
  // DB-IP left out (a folder without its files): every place comes from the file above.
  request = await createTestApp({ GEOIP_CITY_DB: file, DBIP_CITY_DIR: dir, RATE_LIMIT: '0' });
}, 60_000);

describe("ifconfig.co's fields in /json, against what ifconfig.co's server derives from the same record", () => {
  it.each(RECORDS.flatMap(([, ip, record, differs]) => [
    [ip, 'curl/8.5.0', record, differs],
    [ip, 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 Chrome/131.0.0.0 Safari/537.36', record, differs],
  ] as Array<[string, string, Raw, Record<string, unknown> | undefined]>))('%s with User-Agent %s', async (ip, userAgent, record, differs) => {
    const ours = await (await request(`/json?ip=${ip}`, { headers: { 'user-agent': userAgent } })).json() as Record<string, unknown>;
    const theirs = { ...echoipDerives(ip, record, userAgent), ...differs };
    const picked = Object.fromEntries(FIELDS.filter((f) => f in ours).map((f) => [f, ours[f]]));
    // Ours: a number for IPv4, a string for IPv6 (a JSON number of 128 bits loses digits); theirs is a number either way.
    expect(typeof picked.ip_decimal).toBe(ip.includes(':') ? 'string' : 'number');
    expect({ ...picked, ip_decimal: String(picked.ip_decimal) }).toEqual(theirs);
    // `country` stays ours: the code, where ifconfig.co gives the name.
    expect(ours.country).toBe(theirs.country_iso);
  });

  it('gives no user_agent without a User-Agent header, as ifconfig.co', async () => {
    const ours = await (await request('/json?ip=24.24.24.24', { headers: { 'user-agent': '' } })).json() as Record<string, unknown>;
    expect(ours).not.toHaveProperty('user_agent');
  });
});
