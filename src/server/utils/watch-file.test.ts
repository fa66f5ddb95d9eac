import { mkdtempSync, rmSync, statSync, utimesSync, writeFileSync, renameSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Stats } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import { watchForChanges } from './watch-file.ts';

const POLL_MS = 10;
const dirs: string[] = [];
const stops: Array<() => void> = [];
afterEach(() => {
  for (const stop of stops.splice(0)) stop();
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

/** A file in a fresh folder, watched; `seen` collects the stats each call gets. */
function watched(content?: string) {
  const dir = mkdtempSync(path.join(tmpdir(), 'watch-file-'));
  dirs.push(dir);
  const file = path.join(dir, 'list.txt');
  if (content !== undefined) writeFileSync(file, content);
  const seen: Stats[] = [];
  stops.push(watchForChanges(file, POLL_MS, (now) => seen.push(now)));
  return { dir, file, seen };
}

const polls = (n = 15) => new Promise((resolve) => setTimeout(resolve, POLL_MS * n));

describe('watchForChanges', () => {
  it('says nothing while the file stays as it is', async () => {
    const { seen } = watched('a');
    await polls();
    expect(seen).toEqual([]);
  });

  it('calls once with the new stats when the file is rewritten', async () => {
    const { file, seen } = watched('a');
    await polls(2);
    writeFileSync(file, 'bb');
    const at = statSync(file);
    utimesSync(file, at.atime, new Date(at.mtimeMs + 5000));
    await polls();
    expect(seen).toHaveLength(1);
    expect(seen[0]!.size).toBe(2);
  });

  it('sees a rewrite in place that keeps the time (a copy with -p): the size differs', async () => {
    const { file, seen } = watched('a');
    const { atime, mtime } = statSync(file);
    await polls(2);
    writeFileSync(file, 'longer');
    utimesSync(file, atime, mtime);
    await polls();
    expect(seen.map((s) => s.size)).toEqual([6]);
  });

  it('sees a rename over the file that keeps its time and size: the inode differs', async () => {
    const { dir, file, seen } = watched('a');
    const { atime, mtime } = statSync(file);
    const next = path.join(dir, 'next.txt');
    writeFileSync(next, 'b');
    utimesSync(next, atime, mtime);
    await polls(2);
    renameSync(next, file);
    await polls();
    expect(seen).toHaveLength(1);
    expect(seen[0]!.ino).toBe(statSync(file).ino);
  });

  it('sees a file appear and go (its stats all 0 then)', async () => {
    const { file, seen } = watched();
    await polls(2);
    writeFileSync(file, 'a');
    await polls();
    rmSync(file);
    await polls();
    expect(seen.map((s) => s.mtimeMs === 0)).toEqual([false, true]);
  });

  it('stops calling once stopped, and stopping one watch leaves another on the same file', async () => {
    const { file, seen } = watched('a');
    const other: Stats[] = [];
    const stopOther = watchForChanges(file, POLL_MS, (now) => other.push(now));
    await polls(2);
    stops.pop()!();
    writeFileSync(file, 'bb');
    await polls();
    stopOther();
    expect(seen).toEqual([]);
    expect(other).toHaveLength(1);
  });
});
