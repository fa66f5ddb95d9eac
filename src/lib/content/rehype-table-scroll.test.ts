import { describe, expect, it } from 'vitest';
import { tableScrollBox, tableScrollPlugin } from './rehype-table-scroll.ts';

describe('tableScrollPlugin', () => {
  it.each([
    ['a table with a caption: the region is named by it', [{ type: 'element', tagName: 'caption' }], 'Speeds'],
    ['a table without one: a generic name', [{ type: 'element', tagName: 'thead' }], 'Table'],
  ])('%s', (_, children, label) => {
    const wrapped: Array<[unknown, object]> = [];
    const node = { children };
    tableScrollPlugin.element.visit(node, { textContent: () => ' Speeds ', wrapNode: (n, w) => void wrapped.push([n, w]) });
    expect(wrapped).toEqual([[node, tableScrollBox(label)]]);
    expect(tableScrollBox(label).properties).toEqual({ className: ['table-scroll'], role: 'region', tabIndex: 0, ariaLabel: label });
  });
});
