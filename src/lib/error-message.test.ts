import { describe, expect, it } from 'vitest';
import { errorMessage } from './error-message.ts';

describe('errorMessage', () => {
  it.each<[string, unknown, string]>([
    ['an Error: its message', new Error('disk full'), 'disk full'],
    ['a subclass: its message, not its name', new TypeError('not a function'), 'not a function'],
    ['an Error with no message: empty', new Error(), ''],
    ['a thrown string: itself', 'ECONNRESET', 'ECONNRESET'],
    ['a thrown number', 42, '42'],
    ['undefined', undefined, 'undefined'],
    ['null', null, 'null'],
    ['an object that looks like an Error but is not one: as text', { message: 'fake' }, '[object Object]'],
  ])('%s', (_, thrown, expected) => {
    expect(errorMessage(thrown)).toBe(expected);
  });
});
