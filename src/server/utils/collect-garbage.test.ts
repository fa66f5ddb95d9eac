import { describe, expect, it } from 'vitest';
import { collectGarbage } from './collect-garbage.ts';

/** A WeakRef to an object nothing else holds. */
const orphan = () => new WeakRef({ data: new Uint8Array(1024 * 1024) });

describe('collectGarbage', () => {
  it('runs a full collection in this runtime: an object nothing references is gone after it', async () => {
    const ref = orphan();
    // A WeakRef's target lives until the end of the job that made it.
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(collectGarbage()).toBe(true);
    expect(ref.deref()).toBeUndefined();
  });
});
