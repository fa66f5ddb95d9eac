import { describe, expect, it } from 'vitest';
import { BoundedMap, OldestFirst, SecondHitMemo } from './bounded-map.ts';

describe('OldestFirst', () => {
  it('drops entries in insertion order, skipping those deleted meanwhile', () => {
    const map = new OldestFirst<string, number>([['a', 1], ['b', 2], ['c', 3], ['d', 4]]);
    map.dropOldest();
    map.delete('c');
    map.set('e', 5);
    map.dropOldest();
    expect([...map.keys()]).toEqual(['d', 'e']);
    map.dropOldest();
    map.dropOldest();
    map.dropOldest(); // empty: nothing to drop, no error
    expect(map.size).toBe(0);
  });

  it('drops a key set again after its deletion as the newest, not at its old place', () => {
    const map = new OldestFirst<string, number>([['a', 1], ['b', 2]]);
    map.delete('a');
    map.set('a', 3);
    map.dropOldest();
    expect([...map.keys()]).toEqual(['a']);
  });

  it('starts a new walk after clear()', () => {
    const map = new OldestFirst<string, number>([['a', 1], ['b', 2]]);
    map.dropOldest();
    map.clear();
    map.set('x', 1).set('y', 2);
    map.dropOldest();
    expect([...map.keys()]).toEqual(['y']);
  });
});

describe('BoundedMap', () => {
  it.each([
    // [limit, keys set in order, keys held after]
    [0, ['a', 'b'], []],
    [1, ['a', 'b'], ['b']],
    [2, ['a', 'b'], ['a', 'b']],
    [2, ['a', 'b', 'c'], ['b', 'c']],
    [2, ['a', 'b', 'a', 'c'], ['b', 'c']], // setting 'a' again does not move it: it is still the oldest
    [3, ['a', 'b', 'c', 'd', 'e', 'f', 'g'], ['e', 'f', 'g']],
  ])('with limit %i, after setting %j holds %j', (limit, keys, held) => {
    const map = new BoundedMap<string, number>(limit);
    keys.forEach((key, i) => map.set(key, i));
    expect(keys.filter((key, i) => keys.indexOf(key) === i && map.get(key) !== undefined)).toEqual(held);
    expect(map.size).toBe(held.length);
  });

  it('changes the value of a key it holds without evicting another', () => {
    const map = new BoundedMap<string, number>(2);
    map.set('a', 1);
    map.set('b', 2);
    map.set('a', 3);
    expect([map.get('a'), map.get('b')]).toEqual([3, 2]);
  });

  it('stays within its limit over a long churn and keeps the newest', () => {
    const map = new BoundedMap<number, number>(100);
    for (let i = 0; i < 100_000; i++) map.set(i, i);
    expect(map.size).toBe(100);
    expect(map.get(99_899)).toBeUndefined();
    expect(map.get(99_900)).toBe(99_900);
    map.clear();
    expect(map.size).toBe(0);
  });
});

describe('SecondHitMemo', () => {
  it('notes a key on its first ask, keeps the value on the second, answers from then on', () => {
    const memo = new SecondHitMemo<string, string>(10);
    expect(memo.get('k')).toBeUndefined();
    expect(memo.has('k')).toBe(false);
    expect(memo.offer('k', 'first')).toBe(false);
    expect(memo.get('k')).toBeUndefined();
    expect(memo.has('k')).toBe(true);
    expect(memo.offer('k', 'second')).toBe(true);
    expect(memo.get('k')).toBe('second');
    expect(memo.offer('k', 'third')).toBe(true);
    expect(memo.get('k')).toBe('third');
  });

  it('counts noted and kept keys against one bound, oldest out first', () => {
    const memo = new SecondHitMemo<string, string>(2);
    memo.offer('a', 'x');
    memo.offer('a', 'A'); // kept
    memo.offer('b', 'x'); // noted
    memo.offer('c', 'x'); // noted: 'a' is the oldest and goes
    expect(memo.size).toBe(2);
    expect(memo.get('a')).toBeUndefined();
    expect(memo.has('a')).toBe(false);
    expect([memo.has('b'), memo.has('c')]).toEqual([true, true]);
  });

  it('keeps nothing with a limit of 0', () => {
    const memo = new SecondHitMemo<string, string>(0);
    memo.offer('a', 'x');
    expect(memo.offer('a', 'x')).toBe(false);
    expect(memo.get('a')).toBeUndefined();
  });

  it('forgets everything on clear()', () => {
    const memo = new SecondHitMemo<string, string>(4);
    memo.offer('a', 'x');
    memo.offer('a', 'y');
    memo.clear();
    expect([memo.has('a'), memo.get('a'), memo.size]).toEqual([false, undefined, 0]);
  });
});
