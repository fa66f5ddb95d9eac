import { expect, it } from 'vitest';
import { fillTemplate } from './fill-template.ts';

it.each([
  ['Round trip {ms} ms', { ms: 42 }, 'Round trip 42 ms'],
  ['{a} and {a}', { a: 'x' }, 'x and x'],
  ['${price}/month', { price: '4.99' }, '$4.99/month'],
  ['{missing}!', {}, '!'],
  ['no placeholder', { a: 1 }, 'no placeholder'],
])('fills %j with %j', (template, values, text) => expect(fillTemplate(template, values)).toBe(text));
