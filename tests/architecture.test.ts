/**
 * The shape of src/server, checked over its import graph (type imports included): the top
 * level holds only the entry files, every other module sits in a room named for what it is
 * (http/, handlers/, rate-limit/, udp/, dns/, lookup/, mmdb/, cities/, storage/, shell/, utils/,
 * data-update/); the route handlers are siblings that only routes.ts wires; and no module
 * reaches itself through its imports.
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const SERVER = 'src/server';
const ENTRY_FILES = ['config.ts', 'main.ts', 'routes.ts', 'server.ts'];

const files = readdirSync(SERVER, { recursive: true, encoding: 'utf8' })
  .filter((f) => f.endsWith('.ts') && !f.endsWith('.test.ts'));
const source = (file: string) => readFileSync(path.join(SERVER, file), 'utf8');

/** The src/server modules a module imports (relative imports only, resolved to paths under src/server). */
function importsOf(file: string): string[] {
  const found: string[] = [];
  for (const [, spec] of source(file).matchAll(/^\s*(?:import|export)\b[^'"]*?from\s+'(\.[^']+)'/gm)) {
    const target = path.relative(SERVER, path.join(SERVER, path.dirname(file), spec!));
    if (!target.startsWith('..')) found.push(target);
  }
  return found;
}

const inRoom = (room: string) => (file: string) => file.startsWith(`${room}/`);
const isHandler = inRoom('handlers');

/** A cycle of imports starting and ending at one module, or undefined when there is none. */
function findCycle(): string[] | undefined {
  const state = new Map<string, 'open' | 'done'>();
  const stack: string[] = [];
  const visit = (file: string): string[] | undefined => {
    if (state.get(file) === 'done') return undefined;
    if (state.get(file) === 'open') return [...stack.slice(stack.indexOf(file)), file];
    state.set(file, 'open');
    stack.push(file);
    for (const target of importsOf(file)) {
      const cycle = visit(target);
      if (cycle) return cycle;
    }
    stack.pop();
    state.set(file, 'done');
    return undefined;
  };
  for (const file of files) {
    const cycle = visit(file);
    if (cycle) return cycle;
  }
  return undefined;
}

describe('src/server', () => {
  it('holds only the entry files at its top level', () => {
    expect(files.filter((f) => !f.includes('/')).sort()).toEqual(ENTRY_FILES);
  });

  it('finds the route handlers in handlers/', () => {
    expect(files.filter(isHandler)).toEqual(expect.arrayContaining(['handlers/lookup-api.ts', 'handlers/command-line-api.ts', 'handlers/corrections-api.ts']));
  });

  it.each(files.filter(isHandler))('%s imports no other handler and none of the wiring', (file) => {
    const bad = importsOf(file).filter((target) => isHandler(target) || ENTRY_FILES.includes(target) || target === 'http/app.ts');
    expect(bad).toEqual([]);
  });

  it('lets only routes.ts import the handlers', () => {
    const importers = files.filter((f) => !isHandler(f) && importsOf(f).some(isHandler));
    expect(importers).toEqual(['routes.ts']);
  });

  it('has no import cycle', () => {
    expect(findCycle()).toBeUndefined();
  });
});
