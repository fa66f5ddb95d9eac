/**
 * Builds the prebuilt shells of the per-visitor pages at start: each page rendered once
 * through Astro for a placeholder record and cut (page-shell.ts). A page whose shell
 * cannot be built (no island bundle, an island the string renderer cannot reproduce)
 * stays rendered through Astro per request, and the server says so once.
 */
import { existsSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import type { PageRenderer } from '../app.ts';
import { PageShell, ShellError, type IslandBundle } from './page-shell.ts';
import { renderCaptured } from './render-capture.ts';

/** The pages served from a shell: the visitor's own record on `/` and `/ip-2`. */
export const SHELL_PAGES = ['/', '/ip-2'] as const;

/** The island bundle of the build (scripts/build-islands.mjs), or undefined without one. */
export async function loadIslandBundle(distDir: string): Promise<IslandBundle | undefined> {
  const file = path.join(distDir, 'server', 'visitor-islands.mjs');
  return existsSync(file) ? (await import(pathToFileURL(file).href)) as IslandBundle : undefined;
}

/** The shells that could be built, by path. */
export async function loadShells(render: PageRenderer, distDir: string, placeholder: App.Locals): Promise<Map<string, PageShell>> {
  const shells = new Map<string, PageShell>();
  const bundle = await loadIslandBundle(distDir);
  if (!bundle || !placeholder.lookup) {
    console.warn('pages render through Astro per request: the build has no dist/server/visitor-islands.mjs (npm run build makes it)');
    return shells;
  }
  for (const page of SHELL_PAGES) {
    const captured = await renderCaptured(render, page, placeholder);
    try {
      shells.set(page, PageShell.compile(captured, placeholder.lookup, bundle));
    } catch (error) {
      if (!(error instanceof ShellError)) throw error;
      console.warn(`${page} renders through Astro per request: its shell was refused: ${error.message}`);
    }
  }
  return shells;
}
