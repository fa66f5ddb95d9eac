// After `astro build`, before precompression: pages built as shells (src/lib/page-shell.ts)
// leave the static site for dist/shells/, which the server fills per request
// (src/server/shell/), and the islands get two server builds for it:
// dist/server/shell-islands/fast.mjs against src/server/shell/react-subset.ts (the fast
// path) and dist/server/shell-islands/react.mjs against React itself (for an island the
// fast path does not cover). Both export every island module under its file's name; code
// the islands import lazily (the map) stays in chunks the server never loads.
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { build } from 'esbuild';

const DIST = path.resolve('dist');
const CLIENT = path.join(DIST, 'client');
const SHELLS = path.join(DIST, 'shells');
const ISLANDS = path.resolve('src/islands');
const MARK = '\uE000';

/** `/index.html` → `/`, `/lookup/x.html` → `/lookup/x`. */
const routeOf = (rel) => ('/' + rel.split(path.sep).join('/')).replace(/\.html$/, '').replace(/\/index$/, '') || '/';

const headers = JSON.parse(readFileSync(path.join(DIST, '_headers.json'), 'utf8'));
const cspOf = (route) => headers.find((h) => (h.pathname.replace(/\/$/, '') || '/') === route)
  ?.headers.find((h) => h.key.toLowerCase() === 'content-security-policy')?.value;

const shells = [];
for (const entry of readdirSync(CLIENT, { recursive: true, withFileTypes: true })) {
  if (!entry.isFile() || !entry.name.endsWith('.html')) continue;
  const full = path.join(entry.parentPath, entry.name);
  if (!readFileSync(full, 'utf8').includes(MARK)) continue;
  const file = path.relative(CLIENT, full);
  mkdirSync(path.dirname(path.join(SHELLS, file)), { recursive: true });
  renameSync(full, path.join(SHELLS, file));
  shells.push({ route: routeOf(file), file, csp: cspOf(routeOf(file)) });
}
mkdirSync(SHELLS, { recursive: true });
writeFileSync(path.join(SHELLS, 'manifest.json'), JSON.stringify(shells, null, 2) + '\n');

const islands = readdirSync(ISLANDS).filter((f) => f.endsWith('.tsx')).map((f) => path.basename(f, '.tsx'));
const reexports = islands.map((name) => `export * as ${name} from ${JSON.stringify(path.join(ISLANDS, name + '.tsx'))};`).join('\n');
const subset = path.resolve('src/server/shell/react-subset.ts');

/** Packages stay imports from node_modules, except those that must see the aliased React. */
const externalPackages = (bundled) => ({
  name: 'external-packages',
  setup(b) {
    b.onResolve({ filter: /^[^./]/ }, (args) => (bundled.some((p) => args.path === p || args.path.startsWith(p + '/')) ? undefined : { path: args.path, external: true }));
  },
});

const entries = mkdtempSync(path.join(os.tmpdir(), 'shell-islands-'));
writeFileSync(path.join(entries, 'fast.ts'), reexports);
writeFileSync(path.join(entries, 'react.ts'), `${reexports}\nexport { renderToString } from 'react-dom/server';\nexport { createElement } from 'react';\n`);
const common = {
  bundle: true, splitting: true, platform: 'node', format: 'esm', target: 'node22', jsx: 'automatic', logLevel: 'warning',
  outdir: path.join(DIST, 'server', 'shell-islands'), outExtension: { '.js': '.mjs' }, chunkNames: 'chunks/[name]-[hash]',
  loader: { '.css': 'empty' }, define: { 'process.env.NODE_ENV': '"production"' },
};
rmSync(common.outdir, { recursive: true, force: true });
await build({
  ...common,
  entryPoints: [path.join(entries, 'fast.ts')],
  alias: { react: subset, 'react/jsx-runtime': subset },
  plugins: [externalPackages(['react', '@nanostores/react'])],
});
await build({ ...common, entryPoints: [path.join(entries, 'react.ts')], plugins: [externalPackages([])] });
rmSync(entries, { recursive: true });
console.log(`shells: ${shells.map((s) => s.route).join(', ') || 'none'} -> dist/shells; ${islands.length} islands built for the server`);
