// Builds when there is no build, or when a source of the build is newer than it, so
// `npm run test:e2e` (and `npm run test:mutation`) never test a stale build. The build's
// last step writes dist/data/asn-index.bin (scripts/postbuild.mjs), so its time is the
// build's: a build that failed halfway leaves it missing or older than the sources.
import { existsSync, readdirSync, statSync } from 'node:fs';
import { execSync } from 'node:child_process';
import path from 'node:path';

const STAMP = 'dist/data/asn-index.bin';
/** What `npm run build` reads. Tests are not part of it. */
const SOURCES = ['src', 'content', 'public', 'astro.config.mjs', 'scripts/postbuild.mjs', 'scripts/build-asn-index.ts', 'tsconfig.json', 'package-lock.json'];
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

const built = existsSync(STAMP) ? statSync(STAMP).mtimeMs : 0;
const [changed, file] = SOURCES.map(newest).reduce((a, b) => (b[0] > a[0] ? b : a));
if (built === 0) {
  console.log('ensure-build: no build yet: running `npm run build`');
} else if (changed > built) {
  console.log(`ensure-build: ${file} is newer than the build: running \`npm run build\``);
}
if (changed > built || built === 0) execSync('npm run build', { stdio: 'inherit' });
