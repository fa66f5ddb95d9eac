// Accuracy benchmark (`npm run bench:accuracy`): how often the true place of an address lies
// inside the accuracy radius we state, and how far off the place is, measured on the report
// half of bench/ground-truth/ (RIPE Atlas probes; README there). Writes the figures /trust
// shows to content/site/accuracy.json and prints them with the targets.
// `npm run bench:accuracy -- --fit` first refits the model on the other half: it writes
// src/lib/accuracy-model.ts and src/server/data/big-cities.json, then measures.
import { spawnSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { engineFrom } from '../src/server/lookup/engine.ts';
import { openSources } from '../src/server/data/sources.ts';
import { bigCityEntries, cellLabel, fitModel, markBigCities, renderBigCities, renderModel, TABLE_ROWS } from './accuracy/fit.ts';
import { halfOf, loadGroundTruth, observe } from './accuracy/ground-truth.ts';
import { crossCheck, measure } from './accuracy/measure.ts';
import { cellId } from '../src/lib/measured-share.ts';

const FIT_COMMAND = 'npm run bench:accuracy -- --fit';
const COMMAND = 'npm run bench:accuracy';
const FIGURES_FILE = new URL('../content/site/accuracy.json', import.meta.url);
const today = new Date().toISOString().slice(0, 10);

const { sources, problems } = await openSources();
if (!sources.primary || !sources.second) {
  console.error(`bench:accuracy needs both city databases: ${problems.join('; ')}`);
  process.exit(1);
}
const probes = loadGroundTruth();
const observations = observe(sources, probes);
const fitHalf = observations.filter((o) => halfOf(o.probe.ip) === 'fit');
const reportHalf = observations.filter((o) => halfOf(o.probe.ip) === 'report');

if (process.argv.includes('--fit')) {
  const keys = bigCityEntries();
  markBigCities(fitHalf, keys);
  const model = fitModel(fitHalf);
  writeFileSync(new URL('../src/lib/accuracy-model.ts', import.meta.url), renderModel(model, today, FIT_COMMAND));
  writeFileSync(new URL('../src/server/data/big-cities.json', import.meta.url), renderBigCities(keys, FIT_COMMAND));
  console.log(`fitted on ${fitHalf.length} addresses: multiplier ${model.multiplier.toFixed(3)}, preferred ${model.preferred.join(', ')}`);
  for (const c of model.cells) console.log(`  ${cellLabel(c.cell).padEnd(46)} ${String(c.addresses).padStart(5)} addr.  radius ${String(c.radiusKm).padStart(5)} km  inside ${(c.insideFit * 100).toFixed(1)}%`);
  // Measure in a fresh process, so the engine loads the model just written.
  const run = spawnSync(process.execPath, [process.argv[1]!], { stdio: 'inherit' });
  process.exit(run.status ?? 1);
}

const figures = measure(engineFrom(sources), reportHalf, [sources.primary.name, sources.second.name],
  { measuredOn: today, command: COMMAND, probes: probes.length, fitProbes: fitHalf.length });
writeFileSync(FIGURES_FILE, `${JSON.stringify([figures], null, 2)}\n`);

const pct = (v: number | null) => (v === null ? '    -' : `${(v * 100).toFixed(1).padStart(5)}%`);
const kmText = (v: number | null) => (v === null ? '      -' : `${v.toFixed(1).padStart(7)}`);
console.log(`report half: ${figures.reportProbes} of ${figures.probes} RIPE Atlas probes (fit half ${figures.fitProbes})`);
console.log(`${''.padEnd(16)} inside  median km  p90 km  radius p50  country`);
for (const r of figures.rows) console.log(`${r.id.padEnd(16)} ${pct(r.insideRadius)}  ${kmText(r.medianErrorKm)}  ${kmText(r.p90ErrorKm)}  ${kmText(r.medianRadiusKm)}    ${pct(r.countryRight)}`);
console.log('per row of the model:');
for (const c of figures.cells) {
  const label = cellLabel(TABLE_ROWS.find((cell) => cellId(cell) === c.id)!);
  console.log(`  ${label.padEnd(46)} ${String(c.addresses).padStart(5)} addr.  inside ${pct(c.insideRadius)}  median ${kmText(c.medianErrorKm)} km  radius ${kmText(c.radiusKm)} km`);
}

const [shown, ...alone] = figures.rows;
const swap = crossCheck(reportHalf, fitHalf);
const bestAlone = Math.min(...alone.map((r) => r.medianErrorKm));
const bigCells = figures.cells.filter((c) => c.addresses >= 300);
const targets: Array<[string, boolean]> = [
  [`inside the radius ${pct(shown!.insideRadius)} >= 67%`, shown!.insideRadius! >= 0.67],
  [`every row with 300+ addresses >= 60% (lowest ${pct(Math.min(...bigCells.map((c) => c.insideRadius)))})`, bigCells.every((c) => c.insideRadius >= 0.6)],
  [`median radius ${shown!.medianRadiusKm} km <= 2 x median error ${shown!.medianErrorKm} km (ratio ${(shown!.medianRadiusKm! / shown!.medianErrorKm).toFixed(2)})`, shown!.medianRadiusKm! <= 2 * shown!.medianErrorKm],
  [`median error ${shown!.medianErrorKm} km <= best source alone ${bestAlone} km`, shown!.medianErrorKm <= bestAlone],
  [`country right ${pct(shown!.countryRight)} >= 97.5%`, shown!.countryRight >= 0.975],
];
console.log('targets:');
for (const [text, ok] of targets) console.log(`  ${ok ? 'met   ' : 'MISSED'} ${text}`);
console.log(`cross-check, fitted on the report half and checked on the fit half: inside ${pct(swap.insideRadius)}, median radius / median error ${swap.radiusToError.toFixed(2)}`);
console.log(`wrote ${FIGURES_FILE.pathname}`);
