/**
 * What building the network index takes, in a form a worker thread can receive: the ASN
 * index as bytes (AsnIndex.serialize), DB-IP City's file paths and the data version; and
 * the place files opened from it. Shared by load.ts, build-worker.ts and
 * scripts/build-network-index.ts.
 */
import { openMmdb } from '../lookup/city-source.ts';
import type { PlaceReaders } from './build.ts';

export interface BuildInput {
  asn: Uint8Array;
  /** DB-IP City's IPv4 and IPv6 files; none: networks without places. */
  places: { v4: string; v6: string } | undefined;
  version: string;
}

/** Opens the place files; a file that cannot be read leaves its family without places. */
export async function openPlaceReaders(places: BuildInput['places']): Promise<PlaceReaders> {
  if (!places) return { v4: undefined, v6: undefined };
  const [v4, v6] = await Promise.all([openMmdb(places.v4), openMmdb(places.v6)]);
  return { v4: v4 instanceof Error ? undefined : v4, v6: v6 instanceof Error ? undefined : v6 };
}
