/**
 * The accuracy bench's ground truth (bench/ground-truth/: RIPE Atlas probes whose real
 * position is known; its README gives source and caveats), the fixed split into a half the
 * model is fitted on and a half it is measured on, and what each city database answers for
 * every probe.
 */
import { readFileSync } from 'node:fs';
import { haversineKm, distanceConsensus } from '../../src/lib/confidence.ts';
import { parseIp } from '../../src/lib/ip-address.ts';
import { emptyPlace, type Place } from '../../src/server/data/city-source.ts';
import type { Sources } from '../../src/server/data/sources.ts';

/** One row of the ground truth. */
export interface Probe {
  ip: string;
  lat: number;
  lon: number;
  country_code: string;
  probe_id: number;
}

export const GROUND_TRUTH_FILE = new URL('../ground-truth/ripe-atlas-probes-2023.json', import.meta.url);

/** Every probe of the ground truth file, in file order. */
export function loadGroundTruth(): Probe[] {
  return JSON.parse(readFileSync(GROUND_TRUTH_FILE, 'utf8')) as Probe[];
}

export type Half = 'fit' | 'report';

/**
 * Which half a probe belongs to: FNV-1a (32 bits) of its address text, even to 'fit', odd
 * to 'report'. Fixed (no seed, no clock) and independent of the file's order, so a probe
 * added or removed moves no other one.
 */
export function halfOf(ip: string): Half {
  let hash = 0x811c9dc5;
  for (let i = 0; i < ip.length; i++) {
    hash ^= ip.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193) >>> 0;
  }
  return hash % 2 === 0 ? 'fit' : 'report';
}

/** What both city databases answer for one probe (copies, not the engine's scratch objects). */
export interface Observation {
  probe: Probe;
  primary: Place | null;
  second: Place | null;
  /** distance_consensus of the two answers. */
  consensusKm: number | null;
}

/** Asks both city sources for every probe (IPv4 only, as the ground truth is). */
export function observe(sources: Sources, probes: readonly Probe[]): Observation[] {
  return probes.map((probe) => {
    const parsed = parseIp(probe.ip);
    if (!parsed || parsed.version !== 4) throw new Error(`ground truth row is not an IPv4 address: ${probe.ip}`);
    const ask = (source: Sources['primary']): Place | null => {
      const out = emptyPlace();
      return source?.find4(parsed.value, out) ? out : null;
    };
    const primary = ask(sources.primary);
    const second = ask(sources.second);
    return { probe, primary, second, consensusKm: distanceConsensus(primary, second) };
  });
}

/** km from a place to where the probe really is; Infinity when the place has no coordinates. */
export function errorKm(place: { latitude: number; longitude: number } | null, probe: Probe): number {
  if (!place || !Number.isFinite(place.latitude) || !Number.isFinite(place.longitude)) return Infinity;
  return haversineKm(place.latitude, place.longitude, probe.lat, probe.lon);
}

/** The value below which a share `p` of `values` lies: the smallest v with at least p·n values ≤ v. */
export function quantile(values: readonly number[], p: number): number {
  if (values.length === 0) return NaN;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(p * sorted.length) - 1))]!;
}
