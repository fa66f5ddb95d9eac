/**
 * Size budget of `/` (STYLE.md: budgets checked by a test): the JavaScript the built page
 * loads without a click — its module scripts, the components and renderers of every island
 * outside the tab panels that start hidden, and everything they import statically — is at
 * most 100 KB gzip, and holds no Leaflet (which loads only with the map) and no zod (the
 * browser checks answers with src/lib/answer-guards.ts). The hidden tabs'
 * islands hydrate when their tab is first shown (`client:visible`); what they add is counted
 * in the browser by tests/e2e/script-budget.test.ts. The islands' texts, a chunk of data the
 * page loads with them, have a budget of their own: 8 KB. Needs a build (`npm run build`).
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startServer, type RunningServer } from './support/browser-harness.ts';

const CLIENT = path.resolve('dist/client');
const BUDGET_BYTES = 100 * 1024;
/** The islands' texts and the VPN offers (src/islands/island-text.ts): 5 KB gzip in 2026-11, taken out of every page's HTML. */
const TEXTS_CHUNK = /\/island-texts\.[^/]+\.js$/;
const TEXTS_BUDGET_BYTES = 8 * 1024;
// Static imports only: `import x from "./a.js"`, `import "./a.js"`, `export * from "./a.js"`; not `import("./a.js")`.
const STATIC_IMPORT = /\b(?:import|export)\s*(?:[\w$*{}\s,]*?\bfrom\s*)?["']([^"']+\.js)["']/g;

let server: RunningServer;
beforeAll(async () => { server = await startServer(); });
afterAll(async () => { await server?.stop(); });

/** Every JS file the page's entry URLs pull in statically, by URL path. */
function staticClosure(entries: string[]): Map<string, string> {
  const files = new Map<string, string>();
  const queue = [...entries];
  while (queue.length) {
    const url = queue.pop()!;
    if (files.has(url)) continue;
    const source = readFileSync(path.join(CLIENT, url), 'utf8');
    files.set(url, source);
    for (const [, spec] of source.matchAll(STATIC_IMPORT)) queue.push(new URL(spec!, `http://x${url}`).pathname);
  }
  return files;
}

it('ships at most 100 KB of gzipped JavaScript on / without a click, no Leaflet and no zod', async () => {
  const html = await (await fetch(`${server.url}/`)).text();
  // The tab panels follow one another; a hidden one's islands are not loaded without a click.
  const parts = html.split(/(?=<div[^>]*\brole="tabpanel")/);
  const hidden = parts.filter((part) => /^<div[^>]*\bhidden\b[^>]*>/.test(part) && /^<div[^>]*\brole="tabpanel"/.test(part));
  expect(hidden.length, 'the tabs but the first start hidden').toBeGreaterThanOrEqual(3);
  const shown = parts.filter((part) => !hidden.includes(part)).join('');
  const entries = [
    ...[...shown.matchAll(/<script[^>]+type="module"[^>]+src="([^"]+)"/g)].map((m) => m[1]!),
    ...[...shown.matchAll(/(?:component|renderer)-url="([^"]+)"/g)].map((m) => m[1]!),
  ];
  expect(entries.length).toBeGreaterThan(3);
  // Inline scripts the browser runs; data blocks (the page's record, structured data) are not JavaScript.
  const inline = [...html.matchAll(/<script(?![^>]*\bsrc=)(?![^>]*\btype="application\/(?:ld\+)?json")[^>]*>([\s\S]*?)<\/script>/g)]
    .map((m) => m[1]!).join('\n');
  expect(inline).toContain('astro-island');
  expect(inline).not.toContain('"@context"');
  const files = staticClosure([...new Set(entries)]);
  const sizes = [...files].map(([url, source]) => [url, gzipSync(source).length] as const);
  // The islands' texts and offers: data in a chunk of their own (astro.config.mjs), budgeted apart.
  const [texts, code] = [sizes.filter(([u]) => TEXTS_CHUNK.test(u)), sizes.filter(([u]) => !TEXTS_CHUNK.test(u))];
  const total = code.reduce((sum, [, n]) => sum + n, 0) + gzipSync(inline).length;
  expect(texts).toHaveLength(1);
  console.log(`/ loads ${files.size} scripts: ${(total / 1024).toFixed(1)} KB gzip of code, ${(texts[0]![1] / 1024).toFixed(1)} KB of texts\n${sizes.map(([u, n]) => `  ${u} ${(n / 1024).toFixed(1)} KB`).join('\n')}`);
  expect(total).toBeLessThanOrEqual(BUDGET_BYTES);
  expect(texts[0]![1]).toBeLessThanOrEqual(TEXTS_BUDGET_BYTES);
  expect(files.get(texts[0]![0])).toContain('RECOMMENDED');
  for (const [url, source] of files) {
    expect(url).not.toMatch(/leaflet/i);
    expect(source, url).not.toContain('_leaflet_id');
  }
  // The map's chunk exists and is reached only through a dynamic import, from the map tab's island.
  const everyIsland = staticClosure([...new Set([...html.matchAll(/component-url="([^"]+)"/g)].map((m) => m[1]!))]);
  for (const [url, source] of everyIsland) {
    expect(source, url).not.toContain('_leaflet_id');
    // zod's schemas keep their state under `_zod`; an island's chunk holding it ships zod.
    expect(source, url).not.toContain('_zod');
  }
  const lazy = [...everyIsland.values()].join('\n').match(/import\(\s*[`"']([^`"']*leaflet-map[^`"']*\.js)[`"']\s*\)/);
  expect(lazy, 'the map island imports its Leaflet chunk dynamically').not.toBeNull();
});
