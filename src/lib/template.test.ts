import { expect, it } from 'vitest';
import { fill } from './template.ts';

it.each([
  ['Result for {ip}', { ip: '8.8.8.8' }, 'Result for 8.8.8.8'],
  ['{count} of {limit}', { count: 101, limit: 100 }, '101 of 100'],
  ['{count} and {count}', { count: 2 }, '2 and 2'],
  ['left {as} written', {}, 'left {as} written'],
  ['no {toString} from the prototype', {}, 'no {toString} from the prototype'],
])('fills %j', (template, values, text) => expect(fill(template, values)).toBe(text));
