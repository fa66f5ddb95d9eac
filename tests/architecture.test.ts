/**
 * The shape of src/server, checked over its import graph (type imports included): the top
 * level holds only the entry files, every other module sits in a room named for what it is
 * (http/, handlers/, rate-limit/, udp/, dns-leak/, reverse-dns/, data/, lookup/, mmdb/,
 * cities/, networks/, built-index/, storage/, shell/, utils/, data-update/); the route
 * handlers are siblings that only routes.ts wires; only data/layout.ts names the folders
 * under DATA_DIR; no module reaches itself through its imports; over value imports (what runs, not `import type`),
 * no room reaches itself through other rooms, and the HTTP floor (http/) imports no domain
 * room. And across src/, no function runs over 100 lines: a factory past that holds two
 * things, as http/app.ts's dispatcher and writer did in one.
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import ts from 'typescript';
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

/** The src/server modules a module imports values from: `import type`, and imports that name only types, left out. */
function valueImportsOf(file: string): string[] {
  const found: string[] = [];
  for (const [, kind, names, spec] of source(file).matchAll(/^\s*(?:import|export)\s+(type\s+)?([^'"]*?)\s*from\s+'(\.[^']+)'/gm)) {
    const typesOnly = kind !== undefined || /^\{[^}]*\}$/.test(names!) && names!.slice(1, -1).split(',').map((n) => n.trim()).filter(Boolean).every((n) => n.startsWith('type '));
    const target = path.relative(SERVER, path.join(SERVER, path.dirname(file), spec!));
    if (!typesOnly && !target.startsWith('..')) found.push(target);
  }
  return found;
}

/** A module's room: its folder under src/server, or `entry` for the entry files. */
const roomOf = (file: string) => (file.includes('/') ? file.slice(0, file.indexOf('/')) : 'entry');

/** Room → the other rooms it imports values from. */
function roomGraph(): Map<string, Set<string>> {
  const graph = new Map<string, Set<string>>();
  for (const file of files) {
    const from = roomOf(file);
    const targets = graph.get(from) ?? new Set<string>();
    graph.set(from, targets);
    for (const target of valueImportsOf(file)) if (roomOf(target) !== from) targets.add(roomOf(target));
  }
  return graph;
}

/** A cycle of rooms in `graph` (the path back to where it starts), or undefined. */
function findRoomCycle(graph: Map<string, Set<string>>): string[] | undefined {
  const state = new Map<string, 'open' | 'done'>();
  const stack: string[] = [];
  const visit = (room: string): string[] | undefined => {
    if (state.get(room) === 'done') return undefined;
    if (state.get(room) === 'open') return [...stack.slice(stack.indexOf(room)), room];
    state.set(room, 'open');
    stack.push(room);
    for (const next of graph.get(room) ?? []) {
      const cycle = visit(next);
      if (cycle) return cycle;
    }
    stack.pop();
    state.set(room, 'done');
    return undefined;
  };
  for (const room of graph.keys()) {
    const cycle = visit(room);
    if (cycle) return cycle;
  }
  return undefined;
}

/** The rooms that know the domain: addresses' records, the indexes, the stores, DNS. */
const DOMAIN_ROOMS = ['data', 'lookup', 'mmdb', 'cities', 'networks', 'built-index', 'storage', 'dns-leak', 'reverse-dns'];

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

  it('names the folders under DATA_DIR only in data/layout.ts', () => {
    const naming = files.filter((f) => f !== 'data/layout.ts' && /(join|resolve)\([^)]*['"](ip-location-db|lists)['"]|['"]analytics\.sqlite['"]/.test(source(f)));
    expect(naming).toEqual([]);
  });

  it('has no import cycle', () => {
    expect(findCycle()).toBeUndefined();
  });

  it('reads value imports apart from type imports', () => {
    expect(valueImportsOf('http/app.ts')).toEqual(expect.arrayContaining(['http/handler.ts', 'utils/log.ts']));
    expect(valueImportsOf('http/app.ts')).not.toContain('config.ts');
    expect(valueImportsOf('http/app.ts')).not.toContain('http/health.ts');
  });

  it('finds a cycle of rooms when there is one, and none in a chain', () => {
    expect(findRoomCycle(new Map([['a', new Set(['b'])], ['b', new Set(['c'])], ['c', new Set(['a'])]]))).toEqual(['a', 'b', 'c', 'a']);
    expect(findRoomCycle(new Map([['a', new Set(['b'])], ['b', new Set(['c'])], ['c', new Set()]]))).toBeUndefined();
  });

  it('has no cycle of rooms over value imports', () => {
    expect(findRoomCycle(roomGraph())).toBeUndefined();
  });

  it('keeps the HTTP floor (http/) free of the domain: no value import of a domain room', () => {
    const bad = files.filter(inRoom('http')).flatMap((file) => valueImportsOf(file).filter((t) => DOMAIN_ROOMS.includes(roomOf(t))).map((t) => `${file} -> ${t}`));
    expect(bad).toEqual([]);
  });
});

/** Functions (declarations, methods, arrows) whose body spans more than `max` lines, as `file:line name (lines)`. */
function longFunctions(file: string, text: string, max: number): string[] {
  const sf = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true);
  const long: string[] = [];
  const visit = (node: ts.Node) => {
    if (ts.isFunctionLike(node) && 'body' in node && node.body) {
      const first = sf.getLineAndCharacterOfPosition(node.getStart()).line;
      const lines = sf.getLineAndCharacterOfPosition(node.end).line - first + 1;
      const name = 'name' in node && node.name ? node.name.getText() : '(anonymous)';
      if (lines > max) long.push(`${file}:${first + 1} ${name} (${lines})`);
    }
    ts.forEachChild(node, visit);
  };
  visit(sf);
  return long;
}

describe('src/', () => {
  it('finds a function longer than the bound, and not one within it', () => {
    const body = (n: number) => Array.from({ length: n - 2 }, (_, i) => `  const a${i} = ${i};`).join('\n');
    expect(longFunctions('x.ts', `export function f() {\n${body(101)}\n}`, 100)).toEqual(['x.ts:1 f (101)']);
    expect(longFunctions('x.ts', `const g = () => {\n${body(100)}\n};`, 100)).toEqual([]);
  });

  it('has no function over 100 lines', () => {
    const sources = readdirSync('src', { recursive: true, encoding: 'utf8' })
      .filter((f) => /\.tsx?$/.test(f) && !/\.test\.tsx?$/.test(f) && !f.endsWith('.d.ts'));
    expect(sources.length).toBeGreaterThan(100);
    expect(sources.flatMap((f) => longFunctions(`src/${f}`, readFileSync(path.join('src', f), 'utf8'), 100))).toEqual([]);
  });
});
