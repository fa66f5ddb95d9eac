import { describe, expect, it } from 'vitest';
import { RangeList } from '../data/range-list.ts';
import { CHANGE_FACTOR, changeProblem, shapeOf, widthProblem, type ListShape } from './list-bounds.ts';
import { LIST_SOURCES } from './list-sources.ts';

const parse = (text: string) => RangeList.parse(text, { labelColumn: true });
const shape = (ranges: number, space4: number, space6 = 0): ListShape => ({ ranges, space4, space6 });
const tor = LIST_SOURCES.find((s) => s.id === 'tor')!.widest;
const hosting = LIST_SOURCES.find((s) => s.id === 'aws')!.widest;

describe('shapeOf: a version\'s ranges and the space they cover', () => {
  it('counts merged ranges, and addresses per family', () => {
    expect(shapeOf(parse('192.0.2.0/24\n192.0.2.128/25\n198.51.100.7\n2001:db8::/64\n2001:db8:1::/127\n'))).toEqual({ ranges: 4, space4: 257, space6: 2 ** 64 + 2 });
    expect(shapeOf(parse(''))).toEqual({ ranges: 0, space4: 0, space6: 0 });
    expect(shapeOf(parse('2001:db8::1\n2001:db8::3\n'))).toEqual({ ranges: 2, space4: 0, space6: 2 });
  });

  it('covers the whole space for a /0 of each family', () => {
    expect(shapeOf(parse('0.0.0.0/0\n::/0\n'))).toEqual({ ranges: 2, space4: 2 ** 32, space6: 2 ** 128 });
  });
});

describe('widthProblem: no range wider than the list allows', () => {
  it.each<[string, string, readonly [number, number], string | undefined]>([
    ['Tor: single addresses', '185.220.101.1\n2001:67c:e60:c0c:192:42:116:16\n', tor, undefined],
    ['Tor: the whole IPv4 Internet', '185.220.101.1\n0.0.0.0/0\n', tor, 'it holds an IPv4 /0, wider than the /32 this list allows'],
    ['Tor: the whole IPv6 Internet', '185.220.101.1\n::/0\n', tor, 'it holds an IPv6 /0, wider than the /128 this list allows'],
    ['Tor: a /31', '185.220.101.0/31\n', tor, 'it holds an IPv4 /31, wider than the /32 this list allows'],
    ['Tor: a /127', '2001:db8::/127\n', tor, 'it holds an IPv6 /127, wider than the /128 this list allows'],
    ['hosting: a /8, at the bound', '3.0.0.0/8\n', hosting, undefined],
    ['hosting: a /7', '2.0.0.0/7\n', hosting, 'it holds an IPv4 /7, wider than the /8 this list allows'],
    ['hosting: an IPv6 /20, at the bound', '2600:1f00::/20\n', hosting, undefined],
    ['hosting: an IPv6 /19', '2600::/19\n', hosting, 'it holds an IPv6 /19, wider than the /20 this list allows'],
  ])('%s', (_, text, widest, problem) => {
    expect(widthProblem(parse(text), widest)).toBe(problem);
  });

  it('holds every source to a bound no list needs to pass, and Tor to single addresses', () => {
    expect(tor).toEqual([32, 128]);
    for (const source of LIST_SOURCES) {
      expect(source.widest[0], source.id).toBeGreaterThanOrEqual(8);
      expect(source.widest[1], source.id).toBeGreaterThanOrEqual(20);
    }
  });
});

describe('changeProblem: within a factor of the last good version', () => {
  it.each<[string, ListShape, ListShape, string | undefined]>([
    ['the same', shape(1300, 1300), shape(1300, 1300), undefined],
    ['a tenth fewer', shape(1300, 1300), shape(1170, 1170), undefined],
    // Two is added to both counts: (n + 2) at least half of (last + 2).
    ['10 exits shrunk to 1', shape(10, 10), shape(1, 1), 'it holds 1 ranges where the last good version held 10 (more than 2x fewer)'],
    ['10 exits shrunk to 4, at the bound', shape(10, 10), shape(4, 5), undefined],
    ['10 exits shrunk to 3', shape(10, 10), shape(3, 10), 'it holds 3 ranges where the last good version held 10 (more than 2x fewer)'],
    ['4 ranges become 2', shape(4, 4), shape(2, 2), undefined],
    ['1,300 grown to 2,602, at the bound', shape(1300, 1300), shape(2602, 2600), undefined],
    ['1,300 grown to 2,603', shape(1300, 1300), shape(2603, 2600), 'it holds 2603 ranges where the last good version held 1300 (more than 2x more)'],
    ['as many ranges over half the IPv4 space', shape(100, 1e6), shape(100, 2 ** 31), 'it covers 2.1e+3x the IPv4 space of the last good version (the bound is 2x either way)'],
    ['IPv4 space halved, at the bound', shape(100, 1e6), shape(100, 5e5), undefined],
    ['IPv4 space a little under half', shape(100, 1e6), shape(100, 499_999), 'it covers 0.50x the IPv4 space of the last good version (the bound is 2x either way)'],
    ['IPv4 space doubled, at the bound', shape(100, 1e6), shape(100, 2e6), undefined],
    ['IPv4 space a little over double', shape(100, 1e6), shape(100, 2e6 + 1), 'it covers 2.0x the IPv4 space of the last good version (the bound is 2x either way)'],
    ['IPv6 space grown a thousandfold', shape(100, 1e6, 2 ** 64), shape(100, 1e6, 2 ** 74), 'it covers 1.0e+3x the IPv6 space of the last good version (the bound is 2x either way)'],
    ['IPv6 gone where there was some', shape(100, 1e6, 2 ** 64), shape(100, 1e6, 0), 'it covers 0.0x the IPv6 space of the last good version (the bound is 2x either way)'],
    ['IPv6 new where there was none', shape(100, 1e6, 0), shape(100, 1e6, 2 ** 80), undefined],
    ['IPv4 new where there was none', shape(100, 0, 2 ** 64), shape(100, 1e6, 2 ** 64), undefined],
  ])('%s', (_, last, next, problem) => {
    expect(changeProblem(last, next)).toBe(problem);
  });

  it('is a factor of 2', () => {
    expect(CHANGE_FACTOR).toBe(2);
  });
});
