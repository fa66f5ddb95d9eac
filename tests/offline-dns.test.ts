/**
 * No server a test or a bench starts asks a resolver outside the machine: every file that
 * builds a configuration (`loadConfig(`) or starts `src/server/main.ts` names REVERSE_DNS
 * itself (off, or on with DNS_RESOLVERS at a loopback server), or starts its servers through
 * a helper that turns it off (the harnesses in tests/support/, which take it from the offline
 * settings they share, tests/support/offline-env.ts; bench/servers.mjs).
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

/** The helpers, each of which must turn reverse DNS off before a caller's own settings. */
const HELPERS = ['tests/support/app-harness.ts', 'tests/support/http-harness.ts', 'tests/support/browser-harness.ts', 'bench/servers.mjs'];
/** The offline settings the test harnesses share. */
const OFFLINE = 'tests/support/offline-env.ts';
/** Spreads the shared offline settings (imported from offline-env.ts) before `...env`, or names REVERSE_DNS: 'off' itself. */
const USES_OFFLINE_ENV = /import \{ OFFLINE_ENV \} from '\.\/offline-env\.ts';[\s\S]*\.\.\.OFFLINE_ENV\b/;

const sources = (dir: string) => readdirSync(dir, { recursive: true, encoding: 'utf8' })
  .filter((f) => /\.(ts|mjs)$/.test(f)).map((f) => path.join(dir, f));

/** The file's code without its comments (a module may name main.ts in a comment only). */
const code = (file: string) => readFileSync(file, 'utf8').replace(/\/\*[\s\S]*?\*\//g, '').replace(/^\s*\/\/.*$/gm, '');

describe('reverse DNS under tests and benches', () => {
  it.each(HELPERS)('%s turns it off unless told otherwise', (file) => {
    // Before the caller's own settings (`...env`), which a test of reverse DNS uses to turn it on.
    if (file.startsWith('tests/support/')) {
      expect(code(file)).toMatch(USES_OFFLINE_ENV);
      expect(code(file)).toMatch(/\.\.\.OFFLINE_ENV\b.*\.\.\.env\b/);
      expect(code(OFFLINE)).toMatch(/REVERSE_DNS: 'off'/);
    } else {
      expect(code(file)).toMatch(/REVERSE_DNS: 'off'[^}]*(?:\.\.\.env|\})/);
    }
  });

  it('every other file that starts a server names it or goes through a helper', () => {
    const starters = [...sources('tests'), ...sources('bench')]
      .filter((file) => !HELPERS.includes(file))
      .filter((file) => /loadConfig\(|['"]src\/server\/main\.ts['"]/.test(code(file)));
    expect(starters.length).toBeGreaterThan(5);
    const unguarded = starters.filter((file) => {
      const text = code(file);
      return !/REVERSE_DNS/.test(text) && !/from '\.\/servers\.mjs'/.test(text) && !USES_OFFLINE_ENV.test(text);
    });
    expect(unguarded).toEqual([]);
  });
});
