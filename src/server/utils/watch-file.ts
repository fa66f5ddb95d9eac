/**
 * The one way the server watches a data file for a newer copy (the privacy lists, the
 * databases' stamp): polling stat() rather than fs.watch, which survives the rename that
 * replaces a file and costs one stat a file per interval, and never keeps the process alive.
 */
import { unwatchFile, watchFile, type Stats } from 'node:fs';

/**
 * Calls `onChange` with the file's new stats whenever a poll (every `pollMs`) finds it
 * changed: its time, its size (a copy that keeps the time, `cp -p`, rewrites a file in place)
 * or its inode (a rename over it), or it appeared or went (a missing file's stats are all 0).
 * Returns what stops this watch, and only this one.
 */
export function watchForChanges(file: string, pollMs: number, onChange: (now: Stats) => void): () => void {
  const listener = (now: Stats, before: Stats) => {
    if (now.mtimeMs !== before.mtimeMs || now.size !== before.size || now.ino !== before.ino) onChange(now);
  };
  watchFile(file, { interval: pollMs, persistent: false }, listener);
  return () => unwatchFile(file, listener);
}
