/**
 * The place files a network index is built over, opened: shared by load.ts (a build in this
 * thread), build-child.ts and scripts/build-network-index.ts.
 */
import { openMmdb } from '../data/city-source.ts';
import type { PlaceReaders } from './build.ts';

/** Opens DB-IP City's IPv4 and IPv6 files; none, or a file that cannot be read, leaves its family without places. */
export async function openPlaceReaders(places: { v4: string; v6: string } | undefined): Promise<PlaceReaders> {
  if (!places) return { v4: undefined, v6: undefined };
  const [v4, v6] = await Promise.all([openMmdb(places.v4), openMmdb(places.v6)]);
  return { v4: v4 instanceof Error ? undefined : v4, v6: v6 instanceof Error ? undefined : v6 };
}
