/** The guard combinators, one row per case, the row at each edge included. */
import { describe, expect, it } from 'vitest';
import { arrayOf, either, isBoolean, isNumber, isString, nullable, numberIn, object, oneOf, optional, type Guard } from './guard.ts';

const row = (name: string, guard: Guard<unknown>, value: unknown, accepted: boolean) => ({ name, guard, value, accepted });
const arrayWithField = Object.assign(['x'], { a: 'x' });

describe('guard combinators', () => {
  it.each([
    row('a string', isString, 'a', true),
    row('the empty string', isString, '', true),
    row('a number as a string', isString, 1, false),
    row('null as a string', isString, null, false),
    row('a number', isNumber, -1.5, true),
    row('zero', isNumber, 0, true),
    row('NaN', isNumber, Number.NaN, false),
    row('Infinity', isNumber, Number.POSITIVE_INFINITY, false),
    row('-Infinity', isNumber, Number.NEGATIVE_INFINITY, false),
    row('a numeric string as a number', isNumber, '1', false),
    row('null as a number', isNumber, null, false),
    row('true', isBoolean, true, true),
    row('false', isBoolean, false, true),
    row('0 as a boolean', isBoolean, 0, false),
    row("'true' as a boolean", isBoolean, 'true', false),
    row('the lower bound', numberIn(-90, 90), -90, true),
    row('the upper bound', numberIn(-90, 90), 90, true),
    row('inside the bounds', numberIn(-90, 90), 12.5, true),
    row('just under the lower bound', numberIn(-90, 90), -90.0001, false),
    row('just over the upper bound', numberIn(-90, 90), 90.0001, false),
    row('NaN within bounds', numberIn(-90, 90), Number.NaN, false),
    row('a numeric string within bounds', numberIn(-90, 90), '0', false),
    row('the first listed string', oneOf(['a', 'b']), 'a', true),
    row('the last listed string', oneOf(['a', 'b']), 'b', true),
    row('a string not listed', oneOf(['a', 'b']), 'c', false),
    row('a listed string in an array', oneOf(['a', 'b']), ['a'], false),
    row('null for a nullable string', nullable(isString), null, true),
    row('a string for a nullable string', nullable(isString), 'x', true),
    row('undefined for a nullable string', nullable(isString), undefined, false),
    row('a number for a nullable string', nullable(isString), 1, false),
    row('undefined for an optional string', optional(isString), undefined, true),
    row('a string for an optional string', optional(isString), 'x', true),
    row('null for an optional string', optional(isString), null, false),
    row('an empty array', arrayOf(isString), [], true),
    row('an array of strings', arrayOf(isString), ['a', 'b'], true),
    row('an array with one item of another kind', arrayOf(isString), ['a', 1], false),
    row('a string for an array', arrayOf(isString), 'a', false),
    row('an array-like object for an array', arrayOf(isString), { length: 0 }, false),
    row('a long array without a limit', arrayOf(isString), Array.from({ length: 1000 }, () => 'a'), true),
    row('an array at its limit', arrayOf(isString, 2), ['a', 'b'], true),
    row('an array one past its limit', arrayOf(isString, 2), ['a', 'b', 'c'], false),
    row('the first of either', either(isString, isNumber), 'a', true),
    row('the second of either', either(isString, isNumber), 1, true),
    row('neither', either(isString, isNumber), null, false),
    row('an object with its field', object<{ a: string }>({ a: isString }), { a: 'x' }, true),
    row('an object with a field more', object<{ a: string }>({ a: isString }), { a: 'x', c: 1 }, true),
    row('an object with a field of another kind', object<{ a: string }>({ a: isString }), { a: 1 }, false),
    row('an object without its field', object<{ a: string }>({ a: isString }), {}, false),
    row('an object without its optional field', object<{ a: string; b?: number }>({ a: isString, b: optional(isNumber) }), { a: 'x' }, true),
    row('an object with its optional field', object<{ a: string; b?: number }>({ a: isString, b: optional(isNumber) }), { a: 'x', b: 2 }, true),
    row('an object with its optional field of another kind', object<{ a: string; b?: number }>({ a: isString, b: optional(isNumber) }), { a: 'x', b: '2' }, false),
    row('an object whose second field is wrong', object<{ a: string; b: number }>({ a: isString, b: isNumber }), { a: 'x', b: 'y' }, false),
    row('null for an object', object<{ a: string }>({ a: isString }), null, false),
    row('an array carrying the field', object<{ a: string }>({ a: isString }), arrayWithField, false),
    row('a string, whose length a field asks', object<{ length: number }>({ length: isNumber }), 'abc', false),
  ])('$name: $accepted', ({ guard, value, accepted }) => {
    expect(guard(value)).toBe(accepted);
  });
});
