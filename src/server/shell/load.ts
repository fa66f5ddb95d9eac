/**
 * Builds the prebuilt shells of the per-visitor pages at start: each page rendered once
 * through Astro for a placeholder record and cut (page-shell.ts). A page whose shell
 * cannot be built (no island bundle, an island the string renderer cannot reproduce)
 * stays rendered through Astro per request, and the server says so once.
 */
import { existsSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import type { PageRenderer } from './render-capture.ts';
import { PageShell, ShellError, type IslandBundle } from './page-shell.ts';
import { renderCaptured } from './render-capture.ts';

/**
 * A page served from a shell (its route row says so: http/route-table.ts): its path, or
 * with `prefix` the path its one segment, the address, follows (`/lookup/`: cut from the
 * placeholder's page).
 */
export interface ShellPage { path: string; prefix: boolean }

/**
 * The records the shells are cut from and checked against: any full record would do, as
 * long as neither address appears in any text of the pages (they are cut out wherever they
 * appear outside the islands); the check renders the second through Astro and compares.
 */
export const PLACEHOLDERS = ['81.2.69.160', '2001:db8::7e57'] as const;

/** The shell for a path, if it has one. */
export type ShellFor = (path: string) => PageShell | undefined;

/** The island bundle of the build (scripts/build-islands.mjs), or undefined without one. */
export async function loadIslandBundle(distDir: string): Promise<IslandBundle | undefined> {
  const file = path.join(distDir, 'server', 'visitor-islands.mjs');
  return existsSync(file) ? (await import(pathToFileURL(file).href)) as IslandBundle : undefined;
}

/**
 * The shells that could be built. `locals` gives a page's locals for an address (the
 * placeholders). Each shell is checked once more: filled with the second placeholder's
 * record, it must give the page Astro renders for it (islands' uid attributes aside: a
 * hash of their props, which the shell keeps from the first).
 */
export async function loadShells(render: PageRenderer, distDir: string, locals: (ip: string) => App.Locals, pages: readonly ShellPage[],
  placeholders: readonly [string, string] = PLACEHOLDERS): Promise<ShellFor> {
  const shells = new Map<string, PageShell>();
  const bundle = await loadIslandBundle(distDir);
  const [cut, check] = placeholders.map(locals);
  if (!bundle || !cut!.lookup || !check!.lookup) {
    console.warn('pages render through Astro per request: the build has no dist/server/visitor-islands.mjs (npm run build makes it)');
    return () => undefined;
  }
  for (const { path: page, prefix } of pages) {
    const url = (ip: string) => prefix ? page + ip : page;
    try {
      const shell = PageShell.compile(await renderCaptured(render, url(placeholders[0]), cut!), cut!.lookup, bundle);
      const expected = withoutUids((await renderCaptured(render, url(placeholders[1]), check!)).html);
      const filled = withoutUids(shell.fill(check!.lookup).toString('utf8'));
      if (filled !== expected) {
        const at = [...filled].findIndex((c, i) => c !== expected[i]);
        throw new ShellError(`filled for ${placeholders[1]}, it differs from Astro's page at ${at}: ${JSON.stringify(filled.slice(Math.max(0, at - 60), at + 60))}`);
      }
      shells.set(page, shell);
    } catch (error) {
      if (!(error instanceof ShellError)) throw error;
      console.warn(`${page} renders through Astro per request: its shell was refused: ${error.message}`);
    }
  }
  const prefixes = pages.filter((p) => p.prefix && shells.has(p.path)).map((p) => p.path);
  return (path) => shells.get(path) ?? shells.get(prefixes.find((p) => path.startsWith(p)) ?? '');
}

/** A page without its islands' uid attributes (a hash of their props). */
export const withoutUids = (html: string): string => html.replace(/ uid="[^"]*"/g, '');
