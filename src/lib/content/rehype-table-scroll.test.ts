import { defineHastPlugin, markdownToHtml } from 'satteri';
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
    ['headers trimmed, blank ones left out', el('table', [head(' Property ', '', '  ', 'IPv4 ')]), 'Table: Property, IPv4'],
    ['only blank headers', el('table', [head('', ' ')]), 'Table'],
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

describe('tableScrollPlugin in the Markdown processor', () => {
  it('wraps each table, and only tables, in a labelled div', () => {
    const { html } = markdownToHtml('Speeds:\n\n| Plan | Mbit/s |\n|---|---|\n| Basic | 50 |\n', { hastPlugins: [tableScrollPlugin] });
    expect(html).toBe('<p>Speeds:</p>\n'
      + '<div class="table-scroll" role="region" tabindex="0" aria-label="Table: Plan, Mbit/s"><table>\n<thead>\n<tr>\n<th>Plan</th>\n<th>Mbit/s</th>\n</tr>\n</thead>\n'
      + '<tbody>\n<tr>\n<td>Basic</td>\n<td>50</td>\n</tr>\n</tbody>\n</table></div>\n');
  });

  it('is a plugin definition the processor accepts (it must carry a name)', () => {
    expect(() => defineHastPlugin(tableScrollPlugin)).not.toThrow();
  });
});
