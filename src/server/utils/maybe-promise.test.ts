import { describe, expect, it } from 'vitest';
import { andThen } from './maybe-promise.ts';

describe('then', () => {
  it('applies the step at once to a value, with no promise made', () => {
    expect(andThen(2, (n) => n + 1)).toBe(3);
  });

  it('applies it once a promise settles, and passes a rejection on', async () => {
    const pending = andThen(Promise.resolve(2), (n) => n + 1);
    expect(pending).toBeInstanceOf(Promise);
    expect(await pending).toBe(3);
    await expect(andThen(Promise.reject(new Error('down')), (n: number) => n)).rejects.toThrow('down');
  });
});
