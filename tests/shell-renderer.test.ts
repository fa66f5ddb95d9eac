/**
 * html-renderer.ts must write what React writes. Rule by rule (a table of trees built
 * alike with react-subset.ts and with React), then island by island: every island `/`
 * re-renders per request, from the server's two builds of it (dist/server/shell-islands),
 * over random records full of hostile text. Needs `npm run build`.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import fc from 'fast-check';
import * as React from 'react';
import { renderToString } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { SHELL_MARKS, MARK_OPEN } from '../src/lib/page-shell.ts';
import { clientConfigFromEnv } from '../src/lib/client-config.ts';
import { ACCURACY_TIERS, NETWORK_TYPES, RISK_LEVELS, type LookupResponse } from '../src/lib/record.ts';
import { decodeProps, serializeProp } from '../src/server/shell/astro-props.ts';
import { renderToHtml } from '../src/server/shell/html-renderer.ts';
import * as subset from '../src/server/shell/react-subset.ts';

type H = (type: unknown, props: Record<string, unknown> | null, ...children: unknown[]) => unknown;
type Fragment = unknown;
/** A tree described once, built with either library's createElement. */
type Tree = (h: H, fragment: Fragment) => unknown;

const viaSubset = (tree: Tree) => renderToHtml(() => tree(subset.createElement as H, subset.Fragment), {});
const viaReact = (tree: Tree) => renderToString(tree(React.createElement as H, React.Fragment) as React.ReactElement);

describe('html-renderer.ts writes what React writes', () => {
  const Item = ({ label }: { label: string }) => label;
  it.each<[string, Tree]>([
    ['escaped text and attribute values', (h) => h('a', { href: '/?a=1&b="2"', title: `'<>` }, `"&'<>`)],
    ['a separator between adjacent text nodes', (h) => h('p', null, 'a', 'b', 1, 2n)],
    ['no separator for an empty string', (h) => h('p', null, 'a', '', 'b')],
    ['null and booleans render nothing, separators stay', (h) => h('p', null, 'a', null, false, true, undefined, 'b')],
    ['text across fragments and components', (h, f) => h('p', null, 'a', h(f, null, 'b', h(Item, { label: 'c' })), h('b', null, 'd'), 'e')],
    ['class, tabindex and for', (h) => h('label', { className: 'x y', tabIndex: 0, htmlFor: 'id' }, 'l')],
    ['boolean attributes', (h) => h('div', { hidden: true, inert: false, disabled: true }, 'x')],
    ['ARIA and data attributes with booleans', (h) => h('div', { 'aria-selected': true, 'aria-hidden': false, 'data-on': false, 'data-x': undefined, title: true }, 'x')],
    ['event handlers and refs dropped', (h) => h('button', { type: 'button', onClick: () => {}, onKeyDown: () => {}, ref: () => {} }, 'go')],
    ['an empty href on a link, none elsewhere', (h) => h('div', null, h('a', { href: '' }, 'a'), h('span', { href: '' }))],
    ['javascript: URLs blocked', (h) => h('a', { href: ' javascript:alert(1)' }, 'x')],
    ['numbers and keys', (h) => h('ul', null, [1, 2].map((n) => h('li', { key: n, value: n, 'data-n': n }, n)))],
    ['inner HTML as given', (h) => h('div', { dangerouslySetInnerHTML: { __html: '<b>raw</b>' } })],
    ['booleanish attributes', (h) => h('div', { draggable: false, spellCheck: true }, 'x')],
  ])('%s', (_, tree) => {
    expect(viaSubset(tree)).toBe(viaReact(tree));
  });

  it.each<[string, Tree]>([
    ['style', (h) => h('div', { style: { color: 'red' } })],
    ['form controls', (h) => h('input', { value: 'x' })],
    ['hoisted head tags', (h) => h('title', null, 'x')],
    ['custom elements', (h) => h('my-element', { className: 'x' })],
    ['SVG names React renames', (h) => h('svg', { strokeWidth: 2 })],
    ['useId', (h) => h(() => subset.useId(), null)],
  ])('leaves %s to React (throws Unsupported)', (_, tree) => {
    expect(() => viaSubset(tree)).toThrow(subset.Unsupported);
  });
});

/** The islands of `/` that take a marked value, as the build left them. */
function markedIslands() {
  const html = readFileSync('dist/shells/index.html', 'utf8');
  return [...html.matchAll(/<astro-island [^>]*component-url="[^"]*\/([^/.]+)\.[^"]*"[^>]*prefix="([^"]*)"|<astro-island [^>]*prefix="([^"]*)"[^>]*component-url="[^"]*\/([^/.]+)\.[^"]*"[^>]*props="([^"]*)"/g)]
    .map((m) => ({ name: m[4] ?? m[1]!, prefix: m[3] ?? m[2]!, props: m[5] ? decodeProps(m[5]) : {} }))
    .filter(({ props }) => Object.values(props).some((v) => JSON.stringify(v)?.includes(MARK_OPEN)));
}

const hostile = fc.constantFrom('</script><script>alert(1)</script>', '"\'&<>', '&amp;&quot;', '\u2028\u2029', '-->', '<!--',
  `${MARK_OPEN}lookup.data.ip\uE001`, '\u{1F600}', 'Unknown', '', ' ');
const text = fc.oneof(fc.string(), hostile);
const num = fc.oneof(fc.double({ min: -1e6, max: 1e6, noNaN: true }), fc.integer({ min: 0, max: 100000 }), fc.constantFrom(0, -0, 0.5, 1e21));
const record: fc.Arbitrary<LookupResponse> = fc.record({
  success: fc.boolean(),
  data: fc.record({
    ip: text, ip_version: fc.constantFrom('ipv4', 'ipv6'), city: text, region: text, country: text, country_name: text,
    country_code: text, postal: text, latitude: num, longitude: num, timezone: text, isp: text, org: text, asn: text, asn_org: text,
    confidence_score: num, location_source: fc.constantFrom('ip', 'hybrid', 'cached'), vpn_detected: fc.boolean(),
    vpn: fc.record({ detected: fc.boolean(), confidence: num, indicators: fc.array(text, { maxLength: 4 }) }),
    risk_level: fc.constantFrom(...RISK_LEVELS), distance_consensus: fc.option(num), rtt_ms: fc.option(num),
    network_type: fc.constantFrom(...NETWORK_TYPES), accuracy_radius: num, accuracy_tier: fc.constantFrom(...ACCURACY_TIERS),
    reserved: fc.option(text),
  }),
  device: fc.option(fc.record({
    browser: fc.constantFrom('Chrome', 'Firefox', 'Safari', 'Edge', 'Opera', 'Unknown'), os: fc.constantFrom('Windows', 'macOS', 'Linux', 'Android', 'iOS', 'Unknown'),
    device: fc.constantFrom('Desktop', 'Mobile', 'Tablet'), userAgent: text, bot: fc.boolean(),
  })),
  confidence: num,
  sources_used: fc.array(fc.constantFrom('dbip-city', 'geolite2-city', 'asn')),
});

describe('every island / re-renders, html-renderer.ts against React', async () => {
  const dir = pathToFileURL(path.resolve('dist/server/shell-islands') + '/');
  const fast = await import(new URL('fast.mjs', dir).href);
  const react = await import(new URL('react.mjs', dir).href);
  const marks = new Map(Object.entries(SHELL_MARKS).map(([name, value]) => [serializeProp(value), name]));
  const islands = markedIslands();

  it('finds the islands that take the record', () => {
    expect(islands.map((i) => i.name)).toEqual(expect.arrayContaining(['IpBox', 'BadgeRow', 'DetailCards', 'VpnPanel']));
  });

  it.each(islands.map((i) => [i.name, i] as const))('%s renders alike for random records', (_, island) => {
    fc.assert(fc.property(record, (lookup) => {
      const values = { lookup, clientConfig: clientConfigFromEnv({}) } as Record<string, unknown>;
      const props = Object.fromEntries(Object.entries(island.props).map(([k, v]) => {
        const mark = typeof v === 'object' && v !== null ? marks.get(serializeProp(v)) : undefined;
        return [k, mark ? values[mark] : v];
      }));
      delete props.class;
      const expected = react.renderToString(react.createElement(react[island.name].default, props), { identifierPrefix: island.prefix });
      expect(renderToHtml(fast[island.name].default, props)).toBe(expected);
    }), { numRuns: 150 });
  });
});
