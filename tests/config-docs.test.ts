/**
 * The settings table of docs/configuration.md and the settings the server reads stay in step:
 * every environment variable the server, its build or `npm run data:update` reads has a row,
 * and every row names a variable something reads.
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

/** Where settings are read: the server, the browser settings it hands out, the build, the data update. */
const READERS = [
  ...readdirSync('src/server', { recursive: true, encoding: 'utf8' })
    .filter((f) => f.endsWith('.ts') && !f.endsWith('.test.ts')).map((f) => path.join('src/server', f)),
  'src/lib/client-config.ts', 'astro.config.mjs', 'scripts/data-update.ts', 'scripts/start.mjs',
];
/** Read but not a setting of ours: main.ts sets React's NODE_ENV to production when unset. */
const NOT_SETTINGS = new Set(['NODE_ENV']);

function settingsRead(): string[] {
  const names = new Set<string>();
  for (const file of READERS) {
    const text = readFileSync(file, 'utf8');
    for (const m of text.matchAll(/\benv(?:\.|\[')([A-Z][A-Z0-9_]+)|\benv, '([A-Z][A-Z0-9_]+)'/g)) names.add((m[1] ?? m[2])!);
  }
  // The privacy lists' settings are named in one table (data/privacy-lists.ts) and read by name.
  const lists = readFileSync('src/server/data/privacy-lists.ts', 'utf8').match(/LIST_SETTINGS[^=]*=\s*\{([^}]*)\}/)![1]!;
  for (const m of lists.matchAll(/'([A-Z][A-Z0-9_]+)'/g)) names.add(m[1]!);
  // So are the list sources' URLs (data-update/list-sources.ts: a `setting` each).
  for (const m of readFileSync('src/server/data-update/list-sources.ts', 'utf8').matchAll(/setting: '([A-Z][A-Z0-9_]+)'/g)) names.add(m[1]!);
  return [...names].filter((n) => !NOT_SETTINGS.has(n)).sort();
}

/** The file and section that hold the table: every row up to the next section counts. */
const DOC = 'docs/configuration.md';
const SECTION = '## Every setting';

function settingsDocumented(): string[] {
  const doc = readFileSync(DOC, 'utf8');
  const start = doc.indexOf(SECTION);
  expect(start, `${DOC} has no "${SECTION}" section`).toBeGreaterThan(-1);
  const end = doc.indexOf('\n## ', start + 1);
  const table = doc.slice(start, end === -1 ? undefined : end);
  const names = new Set<string>();
  for (const line of table.split('\n').filter((l) => l.startsWith('| `'))) {
    const first = line.split('|')[1]!;
    for (const m of first.matchAll(/`([A-Z][A-Z0-9_]+)`/g)) names.add(m[1]!);
  }
  return [...names].sort();
}

describe('the settings table in docs/configuration.md', () => {
  it('finds the settings on both sides', () => {
    expect(settingsRead()).toEqual(expect.arrayContaining(['HOST', 'PORT', 'RATE_LIMIT', 'TOR_EXIT_LIST']));
    expect(settingsDocumented().length).toBeGreaterThan(20);
  });

  it('documents every setting that is read', () => {
    expect(settingsRead().filter((n) => !settingsDocumented().includes(n))).toEqual([]);
  });

  it('documents only settings that are read', () => {
    expect(settingsDocumented().filter((n) => !settingsRead().includes(n))).toEqual([]);
  });
});
