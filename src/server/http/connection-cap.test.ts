// The descriptor limit as /proc/self/limits states it, and the total connection cap a
// limit gives (its reserve's two edges). The caps on a real socket: tests/connection-cap.test.ts.
import { describe, expect, it } from 'vitest';
import { descriptorLimit, FALLBACK_TOTAL, totalConnectionCap } from './connection-cap.ts';

const limits = (openFiles: string) => `Limit                     Soft Limit           Hard Limit           Units
Max cpu time              unlimited            unlimited            seconds
${openFiles}
Max processes             63551                63551                processes
`;

describe('descriptorLimit', () => {
  it.each<[string, string, number | undefined]>([
    ['a soft limit below the hard one', 'Max open files            1024                 524288               files     ', 1024],
    ['equal limits', 'Max open files            20000                20000                files     ', 20000],
    ['an unlimited soft limit', 'Max open files            unlimited            unlimited            files     ', undefined],
    ['no such line', 'Max locked memory         8388608              8388608              bytes     ', undefined],
  ])('reads %s', (_, line, expected) => {
    expect(descriptorLimit(() => limits(line))).toBe(expected);
  });

  it('is undefined where the file cannot be read', () => {
    expect(descriptorLimit(() => { throw Object.assign(new Error('ENOENT'), { code: 'ENOENT' }); })).toBeUndefined();
  });

  it('reads this process\'s own limit on Linux', () => {
    if (process.platform === 'linux') expect(descriptorLimit()).toBeGreaterThan(0);
  });
});

describe('totalConnectionCap', () => {
  it.each<[number | undefined, number]>([
    [undefined, FALLBACK_TOTAL],
    [1, 1],
    [256, 1],
    [257, 1],
    [258, 2],
    [1024, 768],
    [2560, 2304],
    [2561, 2304],
    [2570, 2313],
    [20_000, 18_000],
    [1_048_576, 943_718],
  ])('leaves a limit of %s descriptors %i connections', (limit, cap) => {
    expect(totalConnectionCap(limit)).toBe(cap);
  });
});
