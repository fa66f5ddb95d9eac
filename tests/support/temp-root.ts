/**
 * Vitest's global setup (vitest.config.ts, vitest.e2e.config.ts): every temporary folder a
 * test run makes (data folders, databases, browser profiles, the servers it spawns) goes
 * under one folder of its own, which is removed when the run ends, whether or not each
 * test removed its own. Test workers and the servers they start inherit TMPDIR, which
 * os.tmpdir() reads.
 */
import { chmodSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

export default function setup(): () => void {
  const before = process.env.TMPDIR;
  const root = mkdtempSync(path.join(tmpdir(), 'whatismyip-test-run-'));
  // Open to every user, as /tmp is: the throwaway PostgreSQL (tests/support/throwaway-postgres.ts)
  // runs as the postgres user in a folder under it.
  chmodSync(root, 0o1777);
  process.env.TMPDIR = root;
  return () => {
    if (before === undefined) delete process.env.TMPDIR;
    else process.env.TMPDIR = before;
    rmSync(root, { recursive: true, force: true });
  };
}
