/**
 * A JSX runtime that renders straight to an HTML string, byte for byte as React's server
 * renderer does for the markup our lookup islands use (src/server/shell/islands.ts): the
 * prebuilt `/` shell renders those islands per visitor through it, the five in about 90 µs
 * where react-dom/server's production build takes about 200 µs (`npm run bench:jsx-string`,
 * docs/benchmarks.md). It is a server-only stand-in: build-islands.mjs
 * bundles the islands with `react` and `react/jsx-runtime` pointed here, so the islands'
 * own code (hooks, helpers, texts) runs unchanged, as on the server's first render: state
 * at its initial value, effects not run. It exports only what those islands use: a new
 * import from React fails the bundle, and what React renders that they never use (style
 * objects, form controls, head elements) throws, so the shell is refused at start and the
 * equality test (tests/page-shell.test.ts) fails, rather than something else rendering.
 */

export const Fragment = Symbol.for('react.fragment');
const ELEMENT = Symbol.for('react.transitional.element');

type Props = Record<string, unknown> & { children?: unknown };
type Component = (props: Props) => unknown;
export interface Element { $$typeof: symbol; type: string | symbol | Component; props: Props }

export function jsx(type: Element['type'], props: Props): Element {
  return { $$typeof: ELEMENT, type, props };
}
export { jsx as jsxs, jsx as jsxDEV };

// Hooks as on the server's first render: state starts and stays initial, effects never run.
const noop = () => {};
export const useState = <T>(initial: T | (() => T)) => [typeof initial === 'function' ? (initial as () => T)() : initial, noop] as const;
export const useRef = <T>(current: T) => ({ current });
export const useMemo = <T>(make: () => T) => make();
export const useEffect = noop;
/** @nanostores/react's useStore: a store's value (on the server, its initial value). */
export const useStore = <T>(store: { get(): T }) => store.get();

/** React's escapeTextForBrowser: text and attribute values. */
const ESCAPED: Record<string, string> = { '"': '&quot;', '&': '&amp;', "'": '&#x27;', '<': '&lt;', '>': '&gt;' };
const UNSAFE = /["&'<>]/g;
export const escapeText = (text: string): string => UNSAFE.test(text) ? text.replace(UNSAFE, (c) => ESCAPED[c]!) : text;

const VOID = new Set(['area', 'base', 'br', 'col', 'embed', 'hr', 'img', 'input', 'keygen', 'link', 'meta', 'param', 'source', 'track', 'wbr']);
/** React's boolean attributes: present (`name=""`, as written: `readOnly=""`) when true, absent when false. */
const BOOLEAN = new Set(['allowFullScreen', 'async', 'autoPlay', 'controls', 'default', 'defer', 'disabled', 'disablePictureInPicture',
  'disableRemotePlayback', 'formNoValidate', 'hidden', 'inert', 'loop', 'noModule', 'noValidate', 'open', 'playsInline', 'readOnly',
  'required', 'reversed', 'scoped', 'seamless', 'itemScope', 'multiple', 'muted', 'selected']);
const ALIAS: Record<string, string> = { className: 'class', htmlFor: 'for', acceptCharset: 'accept-charset', httpEquiv: 'http-equiv', tabIndex: 'tabindex' };
const SKIP = new Set(['children', 'key', 'ref', 'dangerouslySetInnerHTML', 'suppressHydrationWarning', 'suppressContentEditableWarning']);

function attributes(props: Props): string {
  let out = '';
  for (const name in props) {
    const value = props[name];
    if (value == null || SKIP.has(name) || typeof value === 'function' || typeof value === 'symbol') continue;
    if (name === 'style' || name === 'action' || name === 'formAction' || name === 'value' || name === 'defaultValue' || name === 'checked' || name === 'defaultChecked') {
      throw new Error(`jsx-string: the attribute ${name} is not supported`);
    }
    if (BOOLEAN.has(name)) {
      if (value) out += ` ${name}=""`;
      continue;
    }
    if (typeof value === 'boolean') {
      const prefix = name.slice(0, 5).toLowerCase();
      if (prefix !== 'data-' && prefix !== 'aria-') continue;
    }
    out += ` ${ALIAS[name] ?? name}="${escapeText(String(value))}"`;
  }
  return out;
}

/** SVG elements the islands draw (an icon): supported with the attributes React writes as they are. */
const SVG = new Set(['svg', 'path']);
/** Of SVG's camelCase attributes React renames most (strokeWidth: stroke-width); these it keeps. */
const SVG_CAMEL = new Set(['className', 'viewBox']);

/** Throws for an SVG attribute React would rename: style strokes and fills in CSS instead. */
function svgAttributesOnly(type: string, props: Props): void {
  for (const name in props) {
    if (/[A-Z]/.test(name) && !SVG_CAMEL.has(name) && !SKIP.has(name)) throw new Error(`jsx-string: <${type} ${name}> is not supported`);
  }
}

/** The HTML being built, and whether the last thing in it was text (React separates adjacent texts with `<!-- -->`). */
interface Out { html: string; text: boolean }

function render(node: unknown, out: Out): void {
  if (node == null || typeof node === 'boolean') return;
  if (typeof node === 'string' || typeof node === 'number' || typeof node === 'bigint') {
    const text = String(node);
    if (text === '') return;
    if (out.text) out.html += '<!-- -->';
    out.html += escapeText(text);
    out.text = true;
    return;
  }
  if (Array.isArray(node)) {
    for (const child of node) render(child, out);
    return;
  }
  const element = node as Element;
  if (element.$$typeof !== ELEMENT) throw new Error('jsx-string: not an element');
  const { type, props } = element;
  if (type === Fragment) return render(props.children, out);
  if (typeof type === 'function') return render(type(props), out);
  if (typeof type !== 'string') throw new Error('jsx-string: unsupported element type');
  if (type === 'select' || type === 'option' || type === 'textarea' || type === 'input' || type === 'script' || type === 'style'
    || type === 'title' || type === 'link' || type === 'meta' || type === 'html' || type === 'head' || type === 'body') {
    throw new Error(`jsx-string: <${type}> is not supported`);
  }
  if (SVG.has(type)) svgAttributesOnly(type, props);
  out.html += `<${type}${attributes(props)}${VOID.has(type) ? '/>' : '>'}`;
  out.text = false;
  if (VOID.has(type)) return;
  const inner = props.dangerouslySetInnerHTML as { __html?: string } | undefined;
  if (inner) out.html += inner.__html ?? '';
  else render(props.children, out);
  out.html += `</${type}>`;
  out.text = false;
}

/** A component's server HTML, as react-dom/server's renderToString gives it. */
export function renderToString(node: unknown): string {
  const out: Out = { html: '', text: false };
  render(node, out);
  return out.html;
}
