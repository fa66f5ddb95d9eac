// Builds when there is no build, or when a source of the build is newer than it, so
// `npm run test:e2e` (and `npm run test:mutation`) never test a stale build. The build is
// as old as the oldest of its outputs: the Astro server entry, then the indexes that
// scripts/postbuild.mjs writes last, so a build that failed halfway counts as missing.
import { existsSync, readdirSync, statSync } from 'node:fs';
import { execSync } from 'node:child_process';
import path from 'node:path';

const OUTPUTS = ['dist/server/entry.mjs', 'dist/data/asn-index.bin', 'dist/data/network-index.bin', 'dist/data/city-index.bin'];
/** What `npm run build` reads. Tests are not part of it. */
const SOURCES = ['src', 'content', 'public', 'astro.config.mjs', 'scripts/postbuild.mjs', 'scripts/build-asn-index.ts',
  'scripts/build-network-index.ts', 'scripts/build-city-index.ts', 'tsconfig.json', 'package-lock.json'];
const isTest = (file) => /\.test\.tsx?$/.test(file);

/** The newest source file at or under `entry`, as [mtimeMs, path]. */
function newest(entry) {
  if (!existsSync(entry)) return [0, entry];
  const stat = statSync(entry);
  if (!stat.isDirectory()) return [isTest(entry) ? 0 : stat.mtimeMs, entry];
  let best = [0, entry];
  for (const name of readdirSync(entry)) {
    const found = newest(path.join(entry, name));
    if (found[0] > best[0]) best = found;
  }
  return best;
}

const built = Math.min(...OUTPUTS.map((file) => (existsSync(file) ? statSync(file).mtimeMs : 0)));
const [changed, file] = SOURCES.map(newest).reduce((a, b) => (b[0] > a[0] ? b : a));
if (built === 0 || changed > built) {
  console.log(built === 0 ? 'ensure-build: no complete build: running `npm run build`'
    : `ensure-build: ${file} is newer than the build: running \`npm run build\``);
  execSync('npm run build', { stdio: 'inherit' });
}
