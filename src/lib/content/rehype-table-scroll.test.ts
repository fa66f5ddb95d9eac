import { describe, expect, it } from 'vitest';
import { tableLabel, tableScrollBox, tableScrollPlugin } from './rehype-table-scroll.ts';

type El = { type: string; tagName?: string; value?: string; children?: El[] };
const el = (tagName: string, children: El[] = []): El => ({ type: 'element', tagName, children });
const txt = (value: string): El => ({ type: 'text', value });
const text = (node: El): string => (node.type === 'text' ? node.value ?? '' : (node.children ?? []).map(text).join(''));
const head = (...names: string[]) => el('thead', [el('tr', names.map((n) => el('th', [txt(n)])))]);

describe('tableLabel', () => {
  it.each<[string, El, string]>([
    ['a caption names it', el('table', [el('caption', [txt(' Speeds ')]), head('A')]), 'Speeds'],
    ['else its column headers', el('table', [head('Property', 'IPv4', 'IPv6')]), 'Table: Property, IPv4, IPv6'],
    ['no header at all', el('table', [el('tbody')]), 'Table'],
  ])('%s', (_, table, label) => expect(tableLabel(table, text)).toBe(label));
});

describe('tableScrollPlugin', () => {
  it('wraps the table in a focusable region with that name', () => {
    const wrapped: Array<[unknown, object]> = [];
    const table = el('table', [head('Property', 'IPv4')]);
    tableScrollPlugin.element.visit(table, { textContent: (n) => text(n as El), wrapNode: (n, w) => void wrapped.push([n, w]) });
    expect(wrapped).toEqual([[table, tableScrollBox('Table: Property, IPv4')]]);
    expect(tableScrollBox('x').properties).toEqual({ className: ['table-scroll'], role: 'region', tabIndex: 0, ariaLabel: 'x' });
  });
});
