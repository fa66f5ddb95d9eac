// RareLog: a failure that repeats per packet or request writes one line a minute per kind.
import { describe, expect, it } from 'vitest';
import { RareLog } from './log.ts';

describe('RareLog', () => {
  it.each<[string, number, string[]]>([
    ['holds back a line of the same kind 59,999 ms after the last', 59_999, ['a 1']],
    ['writes it at 60,000 ms, saying how many it held back', 60_000, ['a 1', 'a 3 (and 1 more like it since the last one)']],
  ])('%s', (_, later, expected) => {
    const lines: string[] = [];
    const clock = { t: 0 };
    const log = new RareLog((line) => lines.push(line), 60_000, () => clock.t);
    log.log('a', 'a 1');
    log.log('a', 'a 2');
    clock.t = later;
    log.log('a', 'a 3');
    expect(lines).toEqual(expected);
  });

  it('keeps each kind apart, and says nothing of held lines when there were none', () => {
    const lines: string[] = [];
    const clock = { t: 0 };
    const log = new RareLog((line) => lines.push(line), 60_000, () => clock.t);
    log.log('a', 'a 1');
    log.log('b', 'b 1');
    clock.t = 60_000;
    log.log('b', 'b 2');
    expect(lines).toEqual(['a 1', 'b 1', 'b 2']);
  });
});
