/**
 * Every table of an article or guide sits in its own scroll box, so a wide table scrolls
 * sideways on a 390 px phone instead of widening the page. The box is a labelled,
 * focusable region: keyboard users can scroll it too (axe's scrollable-region-focusable).
 * A hast plugin for Astro's Sätteri processor, registered in astro.config.mjs;
 * rehype-table-scroll.test.ts shows the wrapper.
 */

interface Ctx {
  textContent(node: unknown): string;
  wrapNode(node: unknown, wrapper: object): void;
}
interface TableNode { children?: Array<{ type: string; tagName?: string }> }

/** The wrapper a table gets: named by its caption, when it has one. */
export function tableScrollBox(label: string) {
  return {
    type: 'element', tagName: 'div',
    properties: { className: ['table-scroll'], role: 'region', tabIndex: 0, ariaLabel: label || 'Table' },
    children: [],
  };
}

/** The hast plugin: wraps each `<table>` in its scroll box. */
export const tableScrollPlugin = {
  name: 'table-scroll',
  element: {
    filter: ['table'],
    visit(node: TableNode, ctx: Ctx) {
      const caption = node.children?.find((c) => c.type === 'element' && c.tagName === 'caption');
      ctx.wrapNode(node, tableScrollBox(caption ? ctx.textContent(caption).trim() : ''));
    },
  },
};
