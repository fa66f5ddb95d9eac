/**
 * The skip gate of the cases that need PostgreSQL, Redis or server binaries
 * (tests/support/required-service.ts): any non-empty CI counts as CI, and under CI a
 * missing service fails its cases instead of skipping them, without taking the rest of the
 * file with it.
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it, vi } from 'vitest';
import { requiredService, underCi } from './support/required-service.ts';

describe('the skip gate', () => {
  it.each([
    { name: 'CI unset is not CI', env: {}, ci: false },
    { name: 'CI empty is not CI', env: { CI: '' }, ci: false },
    { name: 'CI=true is CI', env: { CI: 'true' }, ci: true },
    { name: 'CI=1 is CI', env: { CI: '1' }, ci: true },
    { name: 'CI set to any other word is CI', env: { CI: 'buildkite' }, ci: true },
  ])('$name', ({ env, ci }) => {
    expect(underCi(env)).toBe(ci);
  });

  it.each([
    { name: 'runs the cases of a service that is there, locally', value: 'postgres://x', env: {}, skip: false },
    { name: 'runs the cases of a service that is there, under CI', value: 'postgres://x', env: { CI: '1' }, skip: false },
    { name: 'skips the cases of a missing service locally, with one warning', value: undefined, env: {}, skip: true },
    { name: 'runs the cases of a missing service under CI=1 (to fail them)', value: undefined, env: { CI: '1' }, skip: false },
    { name: 'runs the cases of a missing service under CI=true (to fail them)', value: undefined, env: { CI: 'true' }, skip: false },
  ])('$name', ({ value, env, skip }) => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    try {
      expect(requiredService(value, 'X is not set', env).skip).toBe(skip);
      expect(warn).toHaveBeenCalledTimes(skip ? 1 : 0);
    } finally {
      warn.mockRestore();
    }
  });

  it('gives the service inside a case, and fails the case naming what is missing when there is none', () => {
    expect(requiredService('redis://x', 'TEST_REDIS_URL is not set', {}).get()).toBe('redis://x');
    expect(() => requiredService(undefined, 'TEST_REDIS_URL is not set', { CI: '1' }).get()).toThrow(/^TEST_REDIS_URL is not set, and CI is set/);
  });
});

describe('a file with SQLite and PostgreSQL cases under CI=1 without TEST_DATABASE_URL', () => {
  it('fails the PostgreSQL case and passes the other', async () => {
    const dir = mkdtempSync(path.join(process.cwd(), 'tests', '.gate-'));
    try {
      const file = path.join(dir, 'gate.test.ts');
      writeFileSync(file, `
        import { it } from 'vitest';
        import { testDatabase } from '../support/postgres.ts';
        const database = testDatabase();
        it('needs nothing', () => {});
        it.skipIf(database.skip)('needs PostgreSQL', () => { database.get(); });
      `);
      const env = { ...process.env, CI: '1', TEST_DATABASE_URL: '' };
      const report = path.join(dir, 'report.json');
      await promisify(execFile)(process.execPath, ['node_modules/vitest/vitest.mjs', 'run', '--reporter=json', `--outputFile=${report}`, file], { env })
        .catch(() => undefined);
      const results = JSON.parse(readFileSync(report, 'utf8')).testResults[0].assertionResults as { title: string; status: string; failureMessages: string[] }[];
      expect(results.map((r) => [r.title, r.status])).toEqual([['needs nothing', 'passed'], ['needs PostgreSQL', 'failed']]);
      expect(results[1]!.failureMessages[0]).toMatch(/TEST_DATABASE_URL is not set, and CI is set/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 60_000);
});
