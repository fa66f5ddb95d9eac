/**
 * Test order for the browser tests (vitest.e2e.config.ts), which run two files at a time: the
 * slowest first, so that no file of minutes starts last and runs alone while the other worker
 * idles. "Slowest" is the last run's record (reports/test-times/e2e.json, written by
 * durations-reporter.ts beside this file) when there is one; without it (a fresh clone) the
 * files known to be slow come first, then Vitest's own order.
 */
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { BaseSequencer, type TestSpecification } from 'vitest/node';
import type { RunTimes } from './durations-reporter.ts';

const RECORD = 'reports/test-times/e2e.json';
/** The slowest on a fresh clone: axe over the sitemap's page types in both schemes, and every visitor state at two widths. */
const KNOWN_SLOW = ['tests/e2e/a11y.test.ts', 'tests/e2e/dark.test.ts', 'tests/e2e/visitor-states.test.ts'];

function lastTimes(): Map<string, number> {
  if (!existsSync(RECORD)) return new Map();
  try {
    const { files } = JSON.parse(readFileSync(RECORD, 'utf8')) as RunTimes;
    return new Map(files.map((f) => [f.file, f.ms]));
  } catch {
    return new Map();
  }
}

export default class SlowestFirstSequencer extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const base = await super.sort(files);
    const times = lastTimes();
    const file = (spec: TestSpecification) => path.relative(process.cwd(), spec.moduleId);
    // A run of a few files records only those: use the record only when it knows every file.
    if (base.every((spec) => times.has(file(spec)))) return base.sort((a, b) => times.get(file(b))! - times.get(file(a))!);
    const rank = (spec: TestSpecification) => { const i = KNOWN_SLOW.indexOf(file(spec)); return i === -1 ? KNOWN_SLOW.length : i; };
    return base.sort((a, b) => rank(a) - rank(b));
  }
}
