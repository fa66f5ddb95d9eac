/**
 * README.md stays a page a newcomer reads in two minutes, and its commands stay true: under
 * 150 lines, none over 200 characters, every `npm run <script>` it names is a script of
 * package.json, `npm start`/`npm test` exist, and every docs/ file it links to is there.
 * The reference material lives in docs/ (api.md, configuration.md, operations.md).
 */
import { existsSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';

const README = readFileSync('README.md', 'utf8');
const LINES = README.split('\n');
const SCRIPTS = Object.keys((JSON.parse(readFileSync('package.json', 'utf8')) as { scripts: Record<string, string> }).scripts);

/** The scripts the README tells someone to run: `npm run x`, and `npm start`/`npm test`, which are scripts too. */
function scriptsNamed(text: string): string[] {
  const names = new Set<string>();
  for (const m of text.matchAll(/\bnpm run ([a-z][a-z0-9:-]*)/g)) names.add(m[1]!);
  for (const m of text.matchAll(/\bnpm (start|test)\b/g)) names.add(m[1]!);
  return [...names].sort();
}

describe('README.md', () => {
  it('is under 150 lines', () => {
    expect(LINES.length).toBeLessThan(150);
  });

  it('has no line over 200 characters', () => {
    expect(LINES.map((line, i) => [i + 1, line.length]).filter(([, length]) => length! > 200)).toEqual([]);
  });

  it('names the two commands that run the site and every gate', () => {
    expect(README).toContain('npm install && npm start');
    expect(README).toContain('npm test');
    expect(SCRIPTS).toEqual(expect.arrayContaining(['start', 'test']));
  });

  it('names only npm scripts that package.json has', () => {
    const named = scriptsNamed(README);
    expect(named).toEqual(expect.arrayContaining(['build', 'dev', 'dev:server', 'start', 'test']));
    expect(named.filter((name) => !SCRIPTS.includes(name))).toEqual([]);
  });

  it('names only test configs and test files that exist', () => {
    const paths = [...README.matchAll(/npx vitest run (?:--config (\S+) )?(\S+\.test\.ts)/g)].flatMap((m) => [m[1], m[2]]).filter((p) => p !== undefined);
    expect(paths.length).toBeGreaterThanOrEqual(3);
    expect(paths.filter((p) => !existsSync(p))).toEqual([]);
  });

  it('links only to docs that exist, api.md and configuration.md among them', () => {
    const links = [...README.matchAll(/\]\((docs\/[^)#]+)\)/g)].map((m) => m[1]!);
    expect(links).toEqual(expect.arrayContaining(['docs/api.md', 'docs/configuration.md', 'docs/operations.md']));
    expect(links.filter((link) => !existsSync(link))).toEqual([]);
  });
});

describe('the scripts finder', () => {
  it('finds `npm run` scripts with colons and the two bare commands, and nothing else', () => {
    expect(scriptsNamed('npm run dev:server; npm start, npm test, npm install, npm run build && npm run bench:api'))
      .toEqual(['bench:api', 'build', 'dev:server', 'start', 'test']);
  });
});
