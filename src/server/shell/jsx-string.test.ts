/**
 * The string JSX runtime against react-dom/server: each tree, built once with React and once
 * with jsx-string.ts, must render to the same HTML; what it does not support must throw
 * (the shell is then refused), never render something else.
 */
import { createElement, Fragment as ReactFragment, useEffect, useMemo, useRef, useState } from 'react';
import { renderToString as reactRenderToString } from 'react-dom/server';
import { afterEach, describe, expect, it, vi } from 'vitest';
import * as strings from './jsx-string.ts';

type H = (type: unknown, props?: Record<string, unknown> | null, ...children: unknown[]) => unknown;
/** What a tree is built with: an element maker, the fragment, and the hooks. */
interface Kit {
  h: H;
  Fragment: unknown;
  hooks: { useState: typeof useState; useRef: typeof useRef; useMemo: typeof useMemo; useEffect: typeof useEffect };
}

const REACT: Kit = {
  h: createElement as unknown as H,
  Fragment: ReactFragment,
  hooks: { useState, useRef, useMemo, useEffect },
};
/** As the bundled islands call it: children in props, one child alone, several as an array. */
const STRING: Kit = {
  h: (type, props, ...children) => strings.jsx(type as strings.Element['type'], children.length === 0 ? { ...props } : { ...props, children: children.length === 1 ? children[0] : children }),
  Fragment: strings.Fragment,
  hooks: strings as unknown as Kit['hooks'],
};

const VOIDS = ['area', 'base', 'br', 'col', 'embed', 'hr', 'img', 'param', 'source', 'track', 'wbr'];

const TREES: Array<[string, (kit: Kit) => unknown]> = [
  ['a text alone, escaped', () => `a < b & "c" 'd' > e`],
  ['a number, zero and a bigint', ({ h }) => h('p', null, 0, h('i'), 12, h('i'), 12n)],
  ['adjacent texts, a comment between each two', ({ h }) => h('p', null, 'a', 'b', 3)],
  ['an empty text between two texts', ({ h }) => h('p', null, 'a', '', 'b')],
  ['an empty text first, then a text', ({ h }) => h('p', null, '', 'b')],
  ['null, undefined and booleans render nothing, and separate no texts', ({ h }) => h('p', null, null, 'a', undefined, false, true, 'b')],
  ['texts either side of an element', ({ h }) => h('p', null, 'a', h('b', null, 'b'), 'c')],
  ['a text right after an opening tag and right after a closing tag', ({ h }) => h('div', null, 'x', h('p', null, 'y'), 'z')],
  ['a text after a void element', ({ h }) => h('p', null, 'a', h('br'), 'b')],
  ['void elements, self-closed', ({ h }) => h('div', null, ...VOIDS.map((type) => h(type, { title: type })))],
  ['arrays, nested', ({ h }) => h('ul', null, [[h('li', { key: '1' }, 'one')], 'two', h('li', { key: '3' }, 'three')])],
  ['fragments, inside and at the top', ({ h, Fragment }) => h(Fragment, null, h('p', null, h(Fragment, null, 'a', 'b'), 'c'), 'd')],
  ['a component with props', ({ h }) => {
    const Name = (props: { name: string; tone: string }) => h('b', { className: props.tone }, props.name);
    return h('p', null, h(Name, { name: 'Ann <3', tone: 'loud' }), '!');
  }],
  ['a component that renders nothing', ({ h }) => h('p', null, 'a', h(() => null), 'b')],
  ['aliased attributes', ({ h }) => h('label', { className: 'c', htmlFor: 'f', acceptCharset: 'utf-8', httpEquiv: 'refresh' }, 'l')],
  ['attribute values escaped', ({ h }) => h('p', { title: `<"&'>`, 'data-x': 'a&b' })],
  ['numbers as attribute values', ({ h }) => h('p', { tabIndex: 0, 'data-n': 5 })],
  ['boolean attributes, true and false', ({ h }) => h('details', { open: true, hidden: false }, h('button', { disabled: true, formNoValidate: false, type: 'button' }))],
  ['camelCase boolean attributes, as written', ({ h }) => h('div', { itemScope: true, readOnly: true, noValidate: false })],
  ['booleans in data- and aria- attributes, and nowhere else', ({ h }) => h('p', { 'data-on': true, 'data-off': false, 'aria-hidden': true, 'aria-busy': false, title: true, translate: false })],
  ['booleans in data- and aria- attributes written in capitals', ({ h }) => h('p', { 'Data-On': true, 'ARIA-busy': false })],
  ['null, undefined, functions and symbols left out', ({ h }) => h('p', { title: null, lang: undefined, onClick: () => 1, dir: Symbol('x'), id: 'kept' })],
  ['React-only props left out', ({ h }) => h('p', { key: 'k', suppressHydrationWarning: true, suppressContentEditableWarning: true, id: 'kept' }, 'x')],
  ['inner HTML as it is, and an empty one', ({ h }) => h('div', null, h('p', { dangerouslySetInnerHTML: { __html: '<b>raw</b> & "as is"' } }), h('p', { dangerouslySetInnerHTML: { __html: '' } }))],
  ['an SVG icon', ({ h }) => h('svg', { viewBox: '0 0 24 24', className: 'icon', 'aria-hidden': true, fill: 'none' }, h('path', { d: 'M0 0h24', 'stroke-width': 2 }))],
  ['an SVG with its inner HTML', ({ h }) => h('svg', { viewBox: '0 0 1 1', dangerouslySetInnerHTML: { __html: '<path d="M0 0"></path>' } })],
  ['hooks as on the first server render: state initial, effects not run', ({ h, hooks }) => {
    const Widget = () => {
      const [lazy, setLazy] = hooks.useState(() => 2);
      const [plain] = hooks.useState('three');
      const ref = hooks.useRef('four');
      const memo = hooks.useMemo(() => lazy * 10, [lazy]);
      const effects: string[] = [];
      hooks.useEffect(() => { effects.push('ran'); setLazy(9); }, []);
      return h('p', null, lazy, plain, ref.current, memo, effects.length);
    };
    return h(Widget);
  }],
];

afterEach(() => { vi.restoreAllMocks(); });

describe('the string renderer renders as react-dom/server', () => {
  it.each(TREES)('%s', (_, tree) => {
    // React warns of what it renders all the same (capitalised data- names): not the point here.
    vi.spyOn(console, 'error').mockImplementation(() => {});
    const expected = reactRenderToString(tree(REACT) as Parameters<typeof reactRenderToString>[0]);
    expect(strings.renderToString(tree(STRING))).toBe(expected);
  });

  it('gives a store its current value (useStore)', () => {
    expect(strings.useStore({ get: () => 'now' })).toBe('now');
  });

  it('keeps state initial after its setter is called', () => {
    const [value, set] = strings.useState(1);
    (set as (v: number) => void)(2);
    expect(strings.useState(() => value)[0]).toBe(1);
  });

  it('never runs an effect', () => {
    const effect = vi.fn();
    (strings.useEffect as (run: () => void) => void)(effect);
    expect(effect).not.toHaveBeenCalled();
  });
});

describe('what React renders that the islands never use throws', () => {
  const { h } = STRING;
  it.each(['style', 'action', 'formAction', 'value', 'defaultValue', 'checked', 'defaultChecked'])('the attribute %s', (name) => {
    expect(() => strings.renderToString(h('div', { [name]: name === 'style' ? { color: 'red' } : 'x' }))).toThrow(`jsx-string: the attribute ${name} is not supported`);
  });

  it.each(['select', 'option', 'textarea', 'input', 'script', 'style', 'title', 'link', 'meta', 'html', 'head', 'body'])('the element <%s>', (type) => {
    expect(() => strings.renderToString(h('div', null, h(type)))).toThrow(`jsx-string: <${type}> is not supported`);
  });

  it.each<[string, string]>([['svg', 'strokeWidth'], ['path', 'fillRule'], ['svg', 'xmlnsXlink']])('an SVG attribute React renames: <%s %s>', (type, name) => {
    expect(() => strings.renderToString(h(type, { [name]: '1' }))).toThrow(`jsx-string: <${type} ${name}> is not supported`);
  });

  it('what is not an element', () => {
    expect(() => strings.renderToString({ type: 'p', props: {} })).toThrow('jsx-string: not an element');
    expect(() => strings.renderToString(createElement('p'))).not.toThrow();
  });

  it('an element type that is neither a tag, a component nor a fragment', () => {
    expect(() => strings.renderToString(strings.jsx(Symbol.for('react.suspense'), {}))).toThrow('jsx-string: unsupported element type');
  });
});

describe('escapeText', () => {
  it.each<[string, string]>([
    ['plain', 'plain'],
    ['', ''],
    ['<>&"\'', '&lt;&gt;&amp;&quot;&#x27;'],
    ['a&b&c', 'a&amp;b&amp;c'],
  ])('%j → %j', (text, escaped) => {
    expect(strings.escapeText(text)).toBe(escaped);
  });
});
