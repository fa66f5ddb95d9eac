/**
 * Island props read back as Astro's client reads them: whatever Astro's server writes into a
 * `props` attribute (serializeProps, then escapeHTML) comes back as the value it was, and a
 * type the shell's islands never take throws rather than reading back as something else.
 */
import { escapeHTML } from 'astro/runtime/server/escape.js';
import { serializeProps } from 'astro/runtime/server/serialize.js';
import { describe, expect, it } from 'vitest';
import { readProps } from './astro-props.ts';

/** The `props` attribute Astro's server writes for `props`. */
const attribute = (props: Record<string, unknown>): string => escapeHTML(serializeProps(props, {} as never)) as string;

describe('readProps', () => {
  it.each<[string, unknown]>([
    ['a text with every escaped character', `&<>'" &amp; &#39;`],
    ['a number', -1.5],
    ['zero', 0],
    ['true', true],
    ['false', false],
    ['null', null],
    ['undefined', undefined],
    ['an empty text', ''],
    ['an object of every kind', { s: 'x', n: 2, o: { deep: [null, { z: 'y' }] }, u: undefined }],
    ['an array', [1, 'two', [3], { four: 4 }]],
    ['an empty object', {}],
    ['an empty array', []],
    ['a date', new Date('2026-11-27T05:30:00.123Z')],
    ['infinity', Number.POSITIVE_INFINITY],
    ['minus infinity', Number.NEGATIVE_INFINITY],
    ['dates and infinities inside', { when: [new Date(0)], far: { off: Number.NEGATIVE_INFINITY } }],
  ])('%s reads back', (_, value) => {
    expect(readProps(attribute({ value }))).toEqual({ value });
  });

  it('reads back a date as a Date', () => {
    expect(readProps(attribute({ value: new Date(5) })).value).toBeInstanceOf(Date);
  });

  it.each<[string, unknown, number]>([
    ['a regular expression', /x/, 2],
    ['a map', new Map([['k', 'v']]), 4],
    ['a set', new Set([1]), 5],
    ['a URL', new URL('https://example.com/'), 7],
  ])('%s, which no island of the shell takes, throws', (_, value, type) => {
    expect(() => readProps(attribute({ value }))).toThrow(new TypeError(`astro-props: prop type ${type} is not supported`));
  });
});
