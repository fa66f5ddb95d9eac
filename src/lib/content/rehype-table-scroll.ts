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
interface HastElement { type: string; tagName?: string; children?: HastElement[] }

/** The wrapper a table gets, named by `label`. */
export function tableScrollBox(label: string) {
  return {
    type: 'element', tagName: 'div',
    properties: { className: ['table-scroll'], role: 'region', tabIndex: 0, ariaLabel: label },
    children: [],
  };
}

const elements = (node: HastElement | undefined, tag: string): HastElement[] =>
  (node?.children ?? []).filter((c) => c.type === 'element' && c.tagName === tag);

/**
 * A name for a table's region, unique on the page as landmarks must be: its caption, or
 * its column headers ('Table: Property, IPv4, IPv6').
 */
export function tableLabel(table: HastElement, text: (node: HastElement) => string): string {
  const [caption] = elements(table, 'caption');
  if (caption) return text(caption).trim();
  const [head] = elements(table, 'thead');
  const [row] = elements(head, 'tr');
  const headers = elements(row, 'th').map((th) => text(th).trim()).filter(Boolean);
  return headers.length ? `Table: ${headers.join(', ')}` : 'Table';
}

/** The hast plugin: wraps each `<table>` in its scroll box. */
export const tableScrollPlugin = {
  name: 'table-scroll',
  element: {
    filter: ['table'],
    visit(node: HastElement, ctx: Ctx) {
      ctx.wrapNode(node, tableScrollBox(tableLabel(node, (n) => ctx.textContent(n))));
    },
  },
};
