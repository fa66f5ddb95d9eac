import { describe, expect, it } from 'vitest';
import { section } from './sections.ts';

type Entry = { id: 'page'; title: string } | { id: 'lookup'; button: string } | { id: 'bulk'; limit: number };
const entries: readonly Entry[] = [
  { id: 'page', title: 'IP lookup' },
  { id: 'lookup', button: 'Look up' },
  { id: 'bulk', limit: 100 },
];

describe('section', () => {
  it.each([
    ['page', { id: 'page', title: 'IP lookup' }],
    ['lookup', { id: 'lookup', button: 'Look up' }],
    ['bulk', { id: 'bulk', limit: 100 }],
  ] as const)('picks the %j entry', (id, entry) => expect(section(entries, id)).toEqual(entry));

  it('fails, naming the section, when it is missing', () => {
    expect(() => section(entries.slice(0, 1), 'bulk')).toThrow('content section "bulk" is missing');
  });
});
