/**
 * The shape of src/server, checked over its import graph: handlers are siblings on one
 * floor (http.ts), never stacked on each other, and only the wiring (routes.ts,
 * server.ts, main.ts) knows them all.
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const SERVER = 'src/server';
const WIRING = new Set(['routes.ts', 'server.ts', 'main.ts', 'app.ts']);

const files = readdirSync(SERVER, { recursive: true, encoding: 'utf8' })
  .filter((f) => f.endsWith('.ts') && !f.endsWith('.test.ts'));
const source = (file: string) => readFileSync(path.join(SERVER, file), 'utf8');

/** The src/server files a module imports (relative imports only, resolved to paths under src/server). */
function importsOf(file: string): string[] {
  const found: string[] = [];
  for (const [, spec] of source(file).matchAll(/^\s*(?:import|export)\b[^'"]*?from\s+'(\.[^']+)'/gm)) {
    const target = path.relative(SERVER, path.join(SERVER, path.dirname(file), spec!));
    if (!target.startsWith('..')) found.push(target);
  }
  return found;
}

/** A handler module exports a function that returns a Handler. */
const isHandlerModule = (file: string) => /export function \w+\([^)]*\)[^{]*:\s*Handler\b/.test(source(file));
const handlers = files.filter(isHandlerModule);

describe('src/server import graph', () => {
  it('finds the handler modules', () => {
    expect(handlers).toEqual(expect.arrayContaining(['api.ts', 'text-endpoints.ts', 'rate-limit.ts']));
  });

  it.each(handlers)('%s imports no other handler module and none of the wiring', (file) => {
    const bad = importsOf(file).filter((target) => target !== file && (handlers.includes(target) || WIRING.has(target)));
    expect(bad).toEqual([]);
  });

  it('lets only the wiring import handler modules', () => {
    const importers = files.filter((f) => !WIRING.has(f) && !handlers.includes(f))
      .filter((f) => importsOf(f).some((target) => handlers.includes(target)));
    expect(importers).toEqual([]);
  });
});
