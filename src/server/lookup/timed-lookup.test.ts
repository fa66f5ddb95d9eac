import { describe, expect, it } from 'vitest';
import { InvalidIpError, type Engine } from './engine.ts';
import { timedLookup } from './timed-lookup.ts';

describe('timedLookup', () => {
  const engineThrowing = (error: Error) => ({ lookup: () => { throw error; } }) as unknown as Engine;
  it('gives undefined for an input that is not an address', () => {
    expect(timedLookup(engineThrowing(new InvalidIpError('no')), 'no')).toBeUndefined();
  });
  it('lets any other failure through', () => {
    expect(() => timedLookup(engineThrowing(new RangeError('broken')), '8.8.8.8')).toThrow('broken');
  });
});
