/**
 * Vitest reporter (vitest.config.ts, vitest.e2e.config.ts), beside the default one: writes how
 * long each test file took to reports/test-times/<name>.json, slowest first, so a slow file
 * is visible after every run. scripts/test.mjs prints the slowest of each stage from it.
 * A file's time is its import (collect) plus its tests and hooks; the run's wall time is
 * beside it, since files may overlap.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { Reporter, TestModule } from 'vitest/node';

export interface FileTime { file: string; ms: number; collectMs: number; testsMs: number; tests: number; state: string }
export interface RunTimes { name: string; wallMs: number; files: FileTime[] }

export const TIMES_DIR = 'reports/test-times';

export default class DurationsReporter implements Reporter {
  private readonly name: string;
  private started = 0;

  constructor(options: { name?: string } = {}) {
    this.name = options.name ?? 'vitest';
  }

  onTestRunStart(): void {
    this.started = performance.now();
  }

  onTestRunEnd(modules: ReadonlyArray<TestModule>): void {
    const files = modules.map((module): FileTime => {
      const { collectDuration, duration } = module.diagnostic();
      return {
        file: path.relative(process.cwd(), module.moduleId),
        ms: Math.round(collectDuration + duration),
        collectMs: Math.round(collectDuration),
        testsMs: Math.round(duration),
        tests: [...module.children.allTests()].length,
        state: module.state(),
      };
    }).sort((a, b) => b.ms - a.ms);
    const times: RunTimes = { name: this.name, wallMs: Math.round(performance.now() - this.started), files };
    mkdirSync(TIMES_DIR, { recursive: true });
    const out = path.join(TIMES_DIR, `${this.name}.json`);
    writeFileSync(out, `${JSON.stringify(times, null, 1)}\n`);
    const slowest = files.slice(0, 5).map((f) => `  ${(f.ms / 1000).toFixed(1).padStart(6)} s  ${f.file}`).join('\n');
    console.log(`\nSlowest files (${this.name}; all in ${out}):\n${slowest}`);
  }
}
