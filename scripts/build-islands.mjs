// Bundles src/server/shell/islands.ts for the server with React replaced by the string
// renderer (src/server/shell/jsx-string.ts): the prebuilt `/` shell renders the visitor's
// islands through it. Output: dist/server/visitor-islands.mjs. Run by postbuild.mjs, and by
// the tests that need it before a build.
import { build } from 'esbuild';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const runtime = path.join(root, 'src/server/shell/jsx-string.ts');
export const ISLANDS_BUNDLE = path.join(root, 'dist/server/visitor-islands.mjs');

/** Builds the bundle to `outfile`. */
export async function buildIslands(outfile = ISLANDS_BUNDLE) {
  await build({
    entryPoints: [path.join(root, 'src/server/shell/islands.ts')],
    outfile,
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node22',
    jsx: 'automatic',
    jsxImportSource: 'react',
    logLevel: 'warning',
    loader: { '.css': 'empty' },
    plugins: [{
      name: 'react-to-string',
      setup(b) {
        b.onResolve({ filter: /^(react|react\/jsx-runtime|react\/jsx-dev-runtime|@nanostores\/react)$/ }, () => ({ path: runtime }));
      },
    }],
  });
}

if (process.argv[1] === fileURLToPath(import.meta.url)) await buildIslands();
