// `npm run bench:jsx-string`: the string renderer (src/server/shell/jsx-string.ts) against
// react-dom/server's renderToString on the same islands, the ones the prebuilt `/` shell
// renders per visitor (src/server/shell/islands.ts), with the same props: each visitor's
// record as `initial`, DetailCards with `vpn` as the home page has it. The string renderer
// is the build's dist/server/visitor-islands.mjs (`npm run build` first); React's is the
// same file bundled with React itself. Both must render the same HTML, or the bench stops.
// Each island renders for 2,000 records of public addresses (a fixed seed) per round, after
// WARMUP rounds; the median of ROUNDS rounds, in microseconds a render, is printed per island
// and for the five together (one visitor's page). Options (env): ROUNDS=15, WARMUP=5.
import { mkdtempSync, rmSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { build } from 'esbuild';
import { publicAddresses } from './seeded-random.mjs';

// React's production build, as the server would run it (its development build is several times slower).
process.env.NODE_ENV ??= 'production';
const { createElement } = await import('react');
const { renderToString: reactRenderToString } = await import('react-dom/server');

const ROUNDS = Number(process.env.ROUNDS || 15);
const WARMUP = Number(process.env.WARMUP || 5);
const COUNT = 2_000;
const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..');

const stringBundle = await import(pathToFileURL(path.join(root, 'dist/server/visitor-islands.mjs')).href).catch(() => {
  throw new Error('bench:jsx-string needs the build: run npm run build');
});
// Inside the tree, so the bundle's imports of react and nanostores resolve to node_modules.
const dir = mkdtempSync(path.join(root, '.bench-jsx-string-'));
const reactFile = path.join(dir, 'react-islands.mjs');
await build({
  entryPoints: [path.join(root, 'src/server/shell/islands.ts')], outfile: reactFile, bundle: true, platform: 'node',
  format: 'esm', target: 'node22', jsx: 'automatic', jsxImportSource: 'react', logLevel: 'warning',
  loader: { '.css': 'empty' }, packages: 'external', define: { 'process.env.NODE_ENV': '"production"' },
});
const reactBundle = await import(pathToFileURL(reactFile).href);
rmSync(dir, { recursive: true, force: true });

const { openSources } = await import(path.join(root, 'src/server/data/sources.ts'));
const { engineFrom } = await import(path.join(root, 'src/server/lookup/engine.ts'));
const { sources } = await openSources({ distDir: path.join(root, 'dist') });
const engine = engineFrom(sources);
const BROWSER = 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/142.0.0.0 Safari/537.36';
const headers = { get: (name) => (name === 'user-agent' ? BROWSER : null) };
const records = (await publicAddresses(0x68e31da4)).slice(0, COUNT).map((ip) => engine.lookup(ip, { headers }));

const ISLANDS = [['IpBox', {}], ['BadgeRow', {}], ['DetailCards', { vpn: true }], ['VerificationCard', {}], ['VpnPanel', {}]];
const renderers = {
  string: (name, props) => stringBundle.renderToString(stringBundle.jsx(stringBundle.islands[name], props)),
  react: (name, props) => reactRenderToString(createElement(reactBundle.islands[name], props)),
};

for (const [name, extra] of ISLANDS) {
  for (const record of records.slice(0, 50)) {
    const props = { ...extra, initial: record };
    if (renderers.string(name, props) !== renderers.react(name, props)) throw new Error(`${name} renders differently for ${record.data.ip}`);
  }
}

let sink = 0;
/** Microseconds a render of `name` by `renderer`, over every record once. */
function round(renderer, name, extra) {
  const started = performance.now();
  for (const record of records) sink += renderer(name, { ...extra, initial: record }).length;
  return ((performance.now() - started) * 1000) / records.length;
}
const median = (values) => values.toSorted((a, b) => a - b)[Math.floor(values.length / 2)];

const rows = [];
for (const [name, extra] of ISLANDS) {
  const times = { string: [], react: [] };
  for (let r = 0; r < WARMUP + ROUNDS; r++) {
    // Alternate which goes first, so neither always runs on the other's warm caches.
    for (const which of r % 2 ? ['react', 'string'] : ['string', 'react']) {
      const us = round(renderers[which], name, extra);
      if (r >= WARMUP) times[which].push(us);
    }
  }
  rows.push({ island: name, string: median(times.string), react: median(times.react) });
}
rows.push({ island: 'all five (one visitor)', string: rows.reduce((s, r) => s + r.string, 0), react: rows.reduce((s, r) => s + r.react, 0) });

console.log(`node ${process.version}, ${COUNT} records, median of ${ROUNDS} rounds after ${WARMUP}, µs a render`);
console.log('island'.padEnd(24), 'jsx-string'.padStart(11), 'react-dom'.padStart(11), 'ratio'.padStart(7));
for (const r of rows) console.log(r.island.padEnd(24), r.string.toFixed(1).padStart(11), r.react.toFixed(1).padStart(11), `${(r.react / r.string).toFixed(1)}x`.padStart(7));
if (sink === 0) console.log('');
