/**
 * A full garbage collection on demand, for the one moment it pays: right after newer
 * databases are swapped in (src/server/lookup/engine-holder.ts). The old ones are hundreds
 * of MB of buffers that nothing references any more, but V8 collects the old generation
 * only under allocation pressure, and that pressure came while the new ones were read,
 * before the swap: without this, the old data stayed in RSS (bench/data-swap.mjs). Node
 * exposes `gc` only with --expose-gc; the flag is set at run time and the function taken
 * from a fresh context, checked on first use: when that no longer works the caller is told,
 * so the lost release is said, not silent.
 */
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

let gc: (() => void) | undefined | null = null;

function find(): (() => void) | undefined {
  const exposed = (globalThis as { gc?: () => void }).gc;
  if (typeof exposed === 'function') return exposed;
  try {
    setFlagsFromString('--expose-gc');
    const fresh: unknown = runInNewContext('gc');
    return typeof fresh === 'function' ? (fresh as () => void) : undefined;
  } catch {
    return undefined;
  }
}

/** Runs a full collection; false when this runtime does not let us (then the memory goes at V8's next major GC). */
export function collectGarbage(): boolean {
  if (gc === null) gc = find();
  if (!gc) return false;
  gc();
  return true;
}
