/**
 * Renders an island built against react-subset.ts to the HTML React's server renderer
 * (react-dom/server, which Astro uses) produces for it, about ten times faster: no
 * tasks, streams or chunks, one string. It follows React 19's rules for what islands
 * use: escaping, `class`/`tabindex`/`for`, boolean and ARIA attributes, `<!-- -->`
 * between adjacent text nodes, event handlers dropped. Anything whose output React
 * decides by rules not copied here (form controls, `<title>`/`<meta>` hoisting, styles,
 * SVG aliases, custom elements) throws Unsupported; shell-page.ts then renders that
 * island through React. tests/shell-renderer.test.ts compares the two over random records.
 */
import { escapeHtml } from './escape.ts';
import { ELEMENT, Fragment, Unsupported, type ShellElement } from './react-subset.ts';

/** Tags React renders by their own rules (hoisting, form state, void elements, preambles). */
const SPECIAL_TAGS = new Set(('select option textarea input form menuitem object title link script style meta listing pre img base '
  + 'area br col embed hr keygen param source track wbr annotation-xml color-profile font-face font-face-src font-face-uri '
  + 'font-face-format font-face-name missing-glyph head body html').split(' '));
const BUTTON_FORM_PROPS = ['name', 'formAction', 'formEncType', 'formMethod', 'formTarget'];
const VALID_TAG = /^[a-zA-Z][a-zA-Z:_.\-\d]*$/;
// React's VALID_ATTRIBUTE_NAME_REGEX.
const SAFE_ATTRIBUTE = /^[:A-Z_a-z\u00C0-\u00D6\u00D8-\u00F6\u00F8-\u02FF\u0370-\u037D\u037F-\u1FFF\u200C-\u200D\u2070-\u218F\u2C00-\u2FEF\u3001-\uD7FF\uF900-\uFDCF\uFDF0-\uFFFD][:A-Z_a-z\u00C0-\u00D6\u00D8-\u00F6\u00F8-\u02FF\u0370-\u037D\u037F-\u1FFF\u200C-\u200D\u2070-\u218F\u2C00-\u2FEF\u3001-\uD7FF\uF900-\uFDCF\uFDF0-\uFFFD\-.0-9\u00B7\u0300-\u036F\u203F-\u2040]*$/;
const JAVASCRIPT_URL = /^[\u0000-\u001F ]*j[\r\n\t]*a[\r\n\t]*v[\r\n\t]*a[\r\n\t]*s[\r\n\t]*c[\r\n\t]*r[\r\n\t]*i[\r\n\t]*p[\r\n\t]*t[\r\n\t]*:/i;
const BLOCKED_URL = "javascript:throw new Error('React has blocked a javascript: URL as a security precaution.')";

/** Attributes rendered as `name=""` when truthy (React's list, names kept as written). */
const BOOLEAN_ATTRIBUTES = new Set(('inert allowFullScreen async autoPlay controls credentialless default defer disabled '
  + 'disablePictureInPicture disableRemotePlayback formNoValidate hidden loop noModule noValidate open playsInline readOnly '
  + 'required reversed scoped seamless itemScope').split(' '));
/** Attributes rendered as the string of any value, booleans included. */
const BOOLEANISH_ATTRIBUTES = new Set('contentEditable spellCheck draggable value autoReverse externalResourcesRequired focusable preserveAlpha'.split(' '));
/** Props that never become attributes. */
const SKIPPED = new Set(['children', 'dangerouslySetInnerHTML', 'key', 'ref', 'defaultValue', 'defaultChecked', 'innerHTML', 'suppressContentEditableWarning', 'suppressHydrationWarning']);
/** The camel-case names React renders under another name that this renderer knows. */
const RENAMED = new Map([['className', 'class'], ['tabIndex', 'tabindex'], ['htmlFor', 'for']]);

const skippable = (value: unknown) => typeof value === 'function' || typeof value === 'symbol';
const attribute = (name: string, value: unknown) => ` ${name}="${escapeHtml(String(value))}"`;

/** One attribute as React's pushAttribute writes it (`value` is not null or undefined). */
function renderAttribute(name: string, value: unknown, tag: string): string {
  if (SKIPPED.has(name)) return '';
  const renamed = RENAMED.get(name);
  if (renamed) return skippable(value) || typeof value === 'boolean' ? '' : attribute(renamed, value);
  if (BOOLEAN_ATTRIBUTES.has(name)) return value && !skippable(value) ? ` ${name}=""` : '';
  if (BOOLEANISH_ATTRIBUTES.has(name)) return skippable(value) ? '' : attribute(name, value);
  switch (name) {
    case 'dir': case 'role': case 'viewBox': case 'width': case 'height':
      return skippable(value) || typeof value === 'boolean' ? '' : attribute(name, value);
    case 'src': case 'href':
      if (value === '') return tag === 'a' && name === 'href' ? ' href=""' : '';
      if (skippable(value) || typeof value === 'boolean') return '';
      return attribute(name, JAVASCRIPT_URL.test(String(value)) ? BLOCKED_URL : value);
    case 'style': case 'action': case 'formAction': case 'autoFocus': case 'multiple': case 'muted':
    case 'capture': case 'download': case 'cols': case 'rows': case 'size': case 'span': case 'rowSpan': case 'start':
      throw new Unsupported(`the ${name} attribute`);
  }
  // Event handlers (onClick, ...) are never rendered.
  if (name.length > 2 && (name[0] === 'o' || name[0] === 'O') && (name[1] === 'n' || name[1] === 'N')) return '';
  // React renames other camel-case names (SVG's strokeWidth, xlinkHref...) by a table not copied here.
  if (/[A-Z]/.test(name)) throw new Unsupported(`the ${name} attribute`);
  if (!SAFE_ATTRIBUTE.test(name) || skippable(value)) return '';
  if (typeof value === 'boolean') {
    const prefix = name.slice(0, 5).toLowerCase();
    return prefix === 'data-' || prefix === 'aria-' ? attribute(name, value) : '';
  }
  return attribute(name, value);
}

/** What is being written, and whether it ends with a text node (React separates two with `<!-- -->`). */
interface Output { html: string; afterText: boolean }

/** Tags already checked to be rendered the generic way. */
const GENERIC_TAGS = new Set<string>();

function renderHostElement(tag: string, props: Record<string, unknown>, out: Output): void {
  if (tag === 'button' && BUTTON_FORM_PROPS.some((p) => props[p] != null)) throw new Unsupported('<button> with form props');
  if (!GENERIC_TAGS.has(tag)) {
    if (SPECIAL_TAGS.has(tag) || tag.includes('-')) throw new Unsupported(`<${tag}>`);
    if (!VALID_TAG.test(tag)) throw new Unsupported(`the tag name ${JSON.stringify(tag)}`);
    GENERIC_TAGS.add(tag);
  }
  let html = `<${tag}`;
  for (const name in props) {
    const value = props[name];
    if (value != null) html += renderAttribute(name, value, tag);
  }
  out.html += html + '>';
  out.afterText = false;
  const { children, dangerouslySetInnerHTML: inner } = props as { children?: unknown; dangerouslySetInnerHTML?: { __html?: unknown } };
  if (inner != null) {
    if (children != null) throw new Unsupported('both children and dangerouslySetInnerHTML');
    if (inner.__html != null) out.html += String(inner.__html);
  } else if (typeof children === 'string') {
    out.html += escapeHtml(children);
  } else {
    renderNode(children, out);
  }
  out.html += `</${tag}>`;
  out.afterText = false;
}

function renderText(text: string, out: Output): void {
  if (text === '') return;
  out.html += (out.afterText ? '<!-- -->' : '') + escapeHtml(text);
  out.afterText = true;
}

function renderNode(node: unknown, out: Output): void {
  switch (typeof node) {
    case 'string': return renderText(node, out);
    case 'number': case 'bigint': return renderText(String(node), out);
    case 'object': break;
    default: return; // booleans, undefined, functions and symbols render nothing
  }
  if (node === null) return;
  if (Array.isArray(node)) {
    for (const child of node) renderNode(child, out);
    return;
  }
  const element = node as ShellElement;
  if (element.$$typeof !== ELEMENT) throw new Unsupported('a child that is not an element of react-subset.ts');
  const { type, props } = element;
  if (typeof type === 'function') return renderNode(type(props), out);
  if (type === Fragment) return renderNode(props.children, out);
  if (typeof type === 'string') return renderHostElement(type, props, out);
  throw new Unsupported(`the element type ${String(type)}`);
}

/** The HTML of a component (built against react-subset.ts) for these props. */
export function renderToHtml(component: (props: Record<string, unknown>) => unknown, props: Record<string, unknown>): string {
  const out: Output = { html: '', afterText: false };
  renderNode(component(props), out);
  return out.html;
}
