/**
 * Measures what the lookup engine says about location on the report half of the ground
 * truth: the share of addresses whose true place lies inside the stated radius (overall
 * and per row of the model's table), the median and 90th-percentile error, the median
 * radius and the share with the right country; the same error and country figures for each
 * city database alone. The result is what content/site/accuracy.json holds and /trust shows.
 */
import { cellRadiusKm } from '../../src/lib/accuracy.ts';
import { PREFERRED_SOURCE } from '../../src/lib/accuracy-model.ts';
import { haversineKm } from '../../src/lib/confidence.ts';
import { cellId } from '../../src/lib/measured-share.ts';
import type { Engine } from '../../src/server/lookup/engine.ts';
import { cellOf, fitModel, shownPlace, TABLE_ROWS } from './fit.ts';
import { errorKm, quantile, type Observation } from './ground-truth.ts';

/** One line of figures: what we show, or one database alone. */
export interface FigureRow {
  /** 'shown' (the record the product answers), or a source's name ('dbip-city'). */
  id: string;
  addresses: number;
  /** Share with the true place inside accuracy_radius; null for a source alone (it states none). */
  insideRadius: number | null;
  medianErrorKm: number;
  p90ErrorKm: number;
  medianRadiusKm: number | null;
  countryRight: number;
}

/** Figures of one row of the model's table (src/lib/accuracy.ts `accuracyCell`). */
export interface CellFigures {
  id: string;
  addresses: number;
  insideRadius: number;
  medianErrorKm: number;
  p90ErrorKm: number;
  radiusKm: number;
}

/** content/site/accuracy.json holds a list of these (one per kind of evidence). */
export interface AccuracyFigures {
  id: 'ripe-atlas';
  measuredOn: string;
  command: string;
  /** Rows in the ground truth, in the fit half, and in the report half the figures come from. */
  probes: number;
  fitProbes: number;
  reportProbes: number;
  rows: FigureRow[];
  cells: CellFigures[];
}

const ORDER = TABLE_ROWS.map(cellId);
const share = (hits: number, n: number) => Math.round((hits / n) * 1000) / 1000;
const km = (v: number) => (Number.isFinite(v) ? Math.round(v * 10) / 10 : v);

function errorFigures(errors: number[]) {
  return { medianErrorKm: km(quantile(errors, 0.5)), p90ErrorKm: km(quantile(errors, 0.9)) };
}

/** What each record and each source alone got right on `report`. */
export function measure(engine: Engine, report: readonly Observation[], sourceNames: readonly [string, string],
  meta: Pick<AccuracyFigures, 'measuredOn' | 'command' | 'probes' | 'fitProbes'>): AccuracyFigures {
  const errors: number[] = [];
  const radii: number[] = [];
  let inside = 0;
  let country = 0;
  const byCell = new Map<string, { errors: number[]; inside: number; radiusKm: number }>();
  for (const o of report) {
    const data = engine.lookup(o.probe.ip).data;
    const error = haversineKm(data.latitude, data.longitude, o.probe.lat, o.probe.lon);
    const hit = error * 1000 <= data.accuracy_radius;
    errors.push(error);
    radii.push(data.accuracy_radius / 1000);
    inside += hit ? 1 : 0;
    country += data.country_code === o.probe.country_code ? 1 : 0;
    const id = cellId(cellOf(o, shownPlace(o, PREFERRED_SOURCE)));
    const cell = byCell.get(id) ?? byCell.set(id, { errors: [], inside: 0, radiusKm: data.accuracy_radius / 1000 }).get(id)!;
    cell.errors.push(error);
    cell.inside += hit ? 1 : 0;
  }
  const n = report.length;
  const alone = (pick: (o: Observation) => Observation['primary'], id: string): FigureRow => ({
    id,
    addresses: n,
    insideRadius: null,
    ...errorFigures(report.map((o) => errorKm(pick(o), o.probe))),
    medianRadiusKm: null,
    countryRight: share(report.filter((o) => pick(o)?.countryCode === o.probe.country_code).length, n),
  });
  return {
    id: 'ripe-atlas',
    ...meta,
    reportProbes: n,
    rows: [
      { id: 'shown', addresses: n, insideRadius: share(inside, n), ...errorFigures(errors), medianRadiusKm: km(quantile(radii, 0.5)), countryRight: share(country, n) },
      alone((o) => o.primary, sourceNames[0]),
      alone((o) => o.second, sourceNames[1]),
    ],
    cells: [...byCell].map(([id, c]) => ({ id, addresses: c.errors.length, insideRadius: share(c.inside, c.errors.length), ...errorFigures(c.errors), radiusKm: km(c.radiusKm) }))
      .sort((a, b) => ORDER.indexOf(a.id) - ORDER.indexOf(b.id)),
  };
}

/**
 * The fit the other way round: fitted on `fitOn`, checked on `checkOn`. How far the two
 * halves disagree shows how much margin the coverage target needs.
 */
export function crossCheck(fitOn: readonly Observation[], checkOn: readonly Observation[]): { insideRadius: number; radiusToError: number } {
  const model = fitModel(fitOn);
  const errors: number[] = [];
  const radii: number[] = [];
  let inside = 0;
  for (const o of checkOn) {
    const place = shownPlace(o, model.preferred);
    const radius = cellRadiusKm(cellOf(o, place), model.radius);
    const error = errorKm(place, o.probe);
    errors.push(error);
    radii.push(radius);
    inside += error <= radius ? 1 : 0;
  }
  return { insideRadius: share(inside, checkOn.length), radiusToError: quantile(radii, 0.5) / quantile(errors, 0.5) };
}
