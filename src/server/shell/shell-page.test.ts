import * as React from 'react';
import { renderToString } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { markFor, SHELL_MARKS } from '../../lib/page-shell.ts';
import type { LookupResponse } from '../../lib/record.ts';
import { serializeProp } from './astro-props.ts';
import * as subset from './react-subset.ts';
import { bindShell, compileShell, ShellError, type Component, type IslandCode } from './shell-page.ts';

/** An island as Astro writes it, with `props` serialized as Astro does. */
function island(name: string, props: Record<string, unknown>, html: string): string {
  const attr = '{' + Object.entries(props).map(([k, v]) => `&quot;${k}&quot;:${serializeProp(v)}`).join(',') + '}';
  return `<astro-island uid="u" prefix="r1" component-url="/_astro/${name}.abc.js" component-export="default" renderer-url="/r.js" props="${attr}" ssr client="load" opts="{}" await-children>${html}<!--astro:end--></astro-island>`;
}

/** The city in a paragraph, built both ways; `Slow` uses what html-renderer.ts leaves to React. */
const City = (h: typeof React.createElement) => ({ initial }: { initial: LookupResponse }) => h('p', { className: 'city' }, initial.data.city);
const SlowCity = ({ initial }: { initial: LookupResponse }) => React.createElement('p', { style: { color: 'red' } }, initial.data.city);
const code: IslandCode = {
  fast: {
    City: { default: City(subset.createElement as never) as Component },
    SlowCity: { default: ((p: { initial: LookupResponse }) => subset.createElement('p', { style: { color: 'red' } }, p.initial.data.city)) as Component },
  },
  loadReact: async () => (name, _export, props) => renderToString(React.createElement((name === 'City' ? City(React.createElement) : SlowCity) as never, props)),
};
const marked = (name: 'City' | 'SlowCity') => island(name, { initial: SHELL_MARKS.lookup },
  renderToString(React.createElement((name === 'City' ? City(React.createElement) : SlowCity) as never, { initial: SHELL_MARKS.lookup })));

const visitor: LookupResponse = { ...SHELL_MARKS.lookup, data: { ...SHELL_MARKS.lookup.data, ip: '203.0.113.5', city: `</p><script>alert("x")</script> & 'co'` } };

async function fill(html: string, values = { lookup: visitor }) {
  const template = bindShell(await compileShell(html, async () => code), { clientConfig: { ...SHELL_MARKS.clientConfig, ipv6Url: null } });
  let out = template.statics[0]!;
  template.holes.forEach((hole, i) => { out += hole.fill(values) + template.statics[i + 1]!; });
  return { out, template };
}

describe('compileShell', () => {
  it.each([
    ['text', `<p>${markFor('lookup.data.city')}</p>`, `<p>&lt;/p&gt;&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; &amp; &#39;co&#39;</p>`],
    ['an attribute', `<a title="IP ${markFor('lookup.data.ip')}">x</a>`, '<a title="IP 203.0.113.5">x</a>'],
    ['a value that is null', `<p>[${markFor('clientConfig.ipv6Url')}]</p>`, '<p>[]</p>'],
  ])('fills a marker in %s, escaped as Astro escapes', async (_, shell, expected) => {
    expect((await fill(shell)).out).toBe(expected);
  });

  it('re-renders an island with marked props from the real record, props and HTML', async () => {
    const { out, template } = await fill(`<main>${marked('City')}</main>`);
    expect(out).toBe(`<main>${island('City', { initial: visitor }, renderToString(React.createElement(City(React.createElement) as never, { initial: visitor })))}</main>`);
    expect(template.slowIslands).toEqual([]);
  });

  it('renders through React an island html-renderer.ts does not cover, and says so', async () => {
    const { out, template } = await fill(marked('SlowCity'));
    expect(out).toContain('<p style="color:red">&lt;/p&gt;&lt;script&gt;');
    expect(template.slowIslands).toEqual([{ name: 'SlowCity', reason: 'the style attribute' }]);
  });

  it.each([
    ['a marker in a script', `<script>var ip = "${markFor('lookup.data.ip')}";</script>`, /inside a <script>/],
    ['a marker in a style', `<style>/* ${markFor('lookup.data.ip')} */</style>`, /inside a <style>/],
    ['a transformed marker', `<p>${markFor('lookup.data.ip').toUpperCase()}</p>`, /not a marked value/],
    ['an unknown path', `<p>${markFor('lookup.data.nope')}</p>`, /not a marked value/],
    ['half a marker', `<p>\uE000lookup.data.ip</p>`, /broke or transformed/],
    ['marked islands nested', island('City', { initial: SHELL_MARKS.lookup }, marked('City')), /inside another/],
    ['a marked island with slots', island('City', { initial: SHELL_MARKS.lookup }, '<astro-slot>x</astro-slot>'), /slots/],
    ['HTML that React would not write', island('City', { initial: SHELL_MARKS.lookup }, '<p>changed</p>'), /differs from the build/],
  ])('refuses a shell with %s', async (_, shell, message) => {
    await expect(compileShell(shell, async () => code)).rejects.toThrow(ShellError);
    await expect(compileShell(shell, async () => code)).rejects.toThrow(message);
  });

  it('fills values known at start once, leaving only per-request holes', async () => {
    const shell = `<p>${markFor('clientConfig.stunUrl')}</p><p>${markFor('lookup.data.ip')}</p>`;
    const template = bindShell(await compileShell(shell, async () => code), { clientConfig: { ...SHELL_MARKS.clientConfig, stunUrl: 'stun:x' } });
    expect(template.statics[0]).toBe('<p>stun:x</p><p>');
    expect(template.holes).toHaveLength(1);
  });
});
