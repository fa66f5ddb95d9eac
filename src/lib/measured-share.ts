/**
 * How often the accuracy radius held the true place for addresses like the visitor's, as
 * measured (content/site/accuracy.json, written by `npm run bench:accuracy` on RIPE Atlas
 * probes the model was not fitted to): the one percentage the lookup screens may show
 * about the radius. Each record falls in one row of the accuracy model (src/lib/accuracy.ts,
 * accuracyCell) and takes that row's measured share. A record whose row was not measured
 * (a GPS fix, only a country, nothing, a special-purpose address) gets none: no figure is
 * shown that nothing measured.
 */
import { CONSENSUS_BANDS_KM, consensusBand } from './confidence.ts';
import { RADIUS_KM } from './accuracy-model.ts';
import type { AccuracyCell } from './accuracy.ts';
import { UNKNOWN, type IpInfo } from './record.ts';

/** A measured row of accuracy.json's `cells`: its id and the share of its addresses inside the radius. */
export interface MeasuredCell {
  id: string;
  insideRadius: number | null;
}

/** A stable id for a row of the model: 'within-5-km' ... 'beyond-200-km', 'one-big-city', 'one-city'. */
export function cellId(cell: AccuracyCell): string {
  if (typeof cell === 'number') {
    const hi = CONSENSUS_BANDS_KM[cell];
    return hi === undefined ? `beyond-${CONSENSUS_BANDS_KM.at(-1)}-km` : `within-${hi}-km`;
  }
  return cell.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`);
}

type Evidence = Pick<IpInfo, 'reserved' | 'location_source' | 'distance_consensus' | 'city' | 'accuracy_radius'>;

/**
 * The id of the model's row the record's place falls in, or null when that row is not one
 * the bench measures. With one source naming a city, the record does not say whether the
 * city has a million people: a radius below the smaller city's (RADIUS_KM.oneCity) can only
 * be the big city's. A source that states its own wider radius (an operator's MaxMind file)
 * can make a big city read as a smaller one; the bench measured the packaged databases,
 * which state none.
 */
export function measuredCellId(r: Evidence): string | null {
  if (r.reserved !== null || r.location_source === 'hybrid') return null;
  if (r.distance_consensus !== null) return cellId(consensusBand(r.distance_consensus));
  if (r.city === '' || r.city === UNKNOWN) return null;
  return cellId(r.accuracy_radius < RADIUS_KM.oneCity * 1000 ? 'oneBigCity' : 'oneCity');
}

/** The measured share, as a whole percentage, of the record's row; null when nothing measured it. */
export function measuredPercent(r: Evidence, cells: readonly MeasuredCell[]): number | null {
  const id = measuredCellId(r);
  const share = cells.find((c) => c.id === id)?.insideRadius ?? null;
  return share === null ? null : Math.round(share * 100);
}
