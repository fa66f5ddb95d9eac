/**
 * Honest visitors with realistic location errors, for the tests that flood the accuracy
 * figures (tests/corrections-flood.test.ts, tests/analytics-store.test.ts): RIPE Atlas
 * probes (bench/ground-truth/), each correcting its place to where it really is, one per
 * IPv4 /24 in file order. Their errors are what the lookup engine's place really misses
 * by (median about 10 km, a long tail), not numbers made up for the test.
 */
import { loadGroundTruth } from '../../bench/accuracy/ground-truth.ts';
import { haversineKm } from '../../src/lib/confidence.ts';
import { parseIp } from '../../src/lib/ip-address.ts';
import type { Engine } from '../../src/server/lookup/engine.ts';
import { networkOf } from '../../src/server/storage/event.ts';

export interface HonestVisitor {
  ip: string;
  /** Where the probe really is: the place the visitor picks. */
  latitude: number;
  longitude: number;
  /** What the server keeps of the visitor (storage/event.ts) and records for the correction. */
  ipPrefix: string;
  distanceKm: number;
  networkType: string;
  countryCode: string;
  /** The ASN the lookup names, as the correction keeps it. */
  asn: string;
}

/** The first `count` probes that the engine places, from `count` distinct /24s. */
export function honestVisitors(engine: Engine, count: number): HonestVisitor[] {
  const visitors: HonestVisitor[] = [];
  const seen = new Set<string>();
  for (const probe of loadGroundTruth()) {
    if (visitors.length === count) return visitors;
    const { prefix } = networkOf(parseIp(probe.ip)!);
    if (seen.has(prefix)) continue;
    const { data } = engine.lookup(probe.ip);
    if (data.reserved || data.country_code === 'Unknown') continue;
    seen.add(prefix);
    visitors.push({
      ip: probe.ip, latitude: probe.lat, longitude: probe.lon, ipPrefix: prefix,
      distanceKm: Math.round(haversineKm(data.latitude, data.longitude, probe.lat, probe.lon) * 10) / 10,
      networkType: data.network_type, countryCode: data.country_code, asn: data.asn,
    });
  }
  if (visitors.length < count) throw new Error(`only ${visitors.length} probes have a place, ${count} asked`);
  return visitors;
}

/** The point on the other side of the earth: what the flood claimed, about 20,000 km off. */
export const antipode = (latitude: number, longitude: number) => ({ latitude: -latitude, longitude: longitude > 0 ? longitude - 180 : longitude + 180 });

/** `(after - before) / before`: how far a published figure moved. */
export const relativeChange = (before: number, after: number): number => Math.abs(after - before) / before;
