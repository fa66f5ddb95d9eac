import { expect, it } from 'vitest';
import { keptList, type KeptField } from './kept-fields.ts';

const entry = (row: KeptField['row'], label: string): KeptField => ({ row, fields: [label], label });

it.each([
  ['no entry of the row', [entry('correction', 'x')], ''],
  ['one entry', [entry('lookup', 'a')], 'a'],
  ['two entries', [entry('lookup', 'a'), entry('lookup', 'b')], 'a and b'],
  ['three entries, in file order', [entry('lookup', 'c'), entry('lookup', 'a'), entry('lookup', 'b')], 'c, a and b'],
  ["the other row's entries left out", [entry('lookup', 'a'), entry('correction', 'x'), entry('lookup', 'b')], 'a and b'],
] as const)('joins %s', (_, entries, text) => expect(keptList(entries, 'lookup')).toBe(text));
