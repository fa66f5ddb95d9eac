/**
 * A page Astro built once as a shell (src/lib/page-shell.ts), cut into static text and
 * holes, then filled per request. Holes are where marked values stand: a marked
 * value's serialized form in an island's `props` attribute, a marked string in Astro
 * markup, and the HTML of every island whose props carry a marked value, which is
 * rendered again from the real props (html-renderer.ts, or React for an island that
 * renderer does not cover). Values known at start (the runtime settings) are filled
 * once; what remains is per request.
 *
 * At start every re-rendered island is rendered with the marker values and compared
 * with the HTML Astro built: a renderer that would not reproduce React's HTML for an
 * island is never used for it. tests/home-page.test.ts holds the filled page to what
 * the per-request Astro render produced.
 */
import { MARK_CLOSE, MARK_OPEN, SHELL_MARKS, type ShellValues } from '../../lib/page-shell.ts';
import { decodeProps, propString, serializeProp } from './astro-props.ts';
import { escapeAstro } from './escape.ts';
import { renderToHtml } from './html-renderer.ts';
import { Unsupported } from './react-subset.ts';

/** A shell the server cannot fill faithfully; the message says where and why. */
export class ShellError extends Error {}

export type MarkName = keyof ShellValues;
export type Component = (props: Record<string, unknown>) => unknown;

/** An island's HTML through React's renderToString: `(module, export, props, identifierPrefix)`. */
export type ReactRender = (name: string, exportName: string, props: Record<string, unknown>, identifierPrefix: string) => string;

/** The server's builds of the islands (scripts/build-shells.mjs). */
export interface IslandCode {
  /** Built against react-subset.ts: `module name → export name → component`. */
  fast: Record<string, Record<string, Component>>;
  /** The islands through React, loaded only for an island the fast renderer does not cover. */
  loadReact(): Promise<ReactRender>;
}

type Values = Partial<ShellValues>;

/** A hole: the marks its text depends on, and its text for the values of one request. */
export interface Hole {
  deps: readonly MarkName[];
  fill(values: Values): string;
}

/** The compiled page: `statics[i]`, then hole `i`, ..., then the last static. */
export interface ShellTemplate {
  statics: string[];
  holes: Hole[];
  /** Which islands render through React instead of html-renderer.ts, and why. */
  slowIslands: Array<{ name: string; reason: string }>;
}

const MARKER = /\uE000([^\uE000\uE001]*)\uE001/g;
/** In a props attribute: a JSON string that is one marker (its value may be null), or a marker inside a string. */
const PROP_MARKER = /&quot;\uE000([^\uE000\uE001]*)\uE001&quot;|\uE000([^\uE000\uE001]*)\uE001/g;
const MARK_NAMES = Object.keys(SHELL_MARKS) as MarkName[];
/** Each mark's value as it stands serialized in a props attribute. */
const MARK_FORMS = new Map(MARK_NAMES.map((name) => [serializeProp(SHELL_MARKS[name]), name]));

/** The marked value at a dotted path. */
function valueAt(values: Values, path: string): unknown {
  let node: unknown = values;
  for (const key of path.split('.')) node = (node as Record<string, unknown> | null | undefined)?.[key];
  return node;
}

/** The mark a marker path belongs to, after checking the page did not alter the marker. */
function markOf(path: string, where: string): MarkName {
  if (valueAt(SHELL_MARKS, path) !== `${MARK_OPEN}${path}${MARK_CLOSE}`) {
    throw new ShellError(`${where}: "${path}" is not a marked value (a marker changed by the page, e.g. trimmed or upper-cased?)`);
  }
  return path.slice(0, path.indexOf('.')) as MarkName;
}

const textOf = (value: unknown) => (value == null ? '' : String(value));

/** A string prop with markers in it, for the values of a request (a marker alone stands for its value, null included). */
function fillString(text: string, values: Values): unknown {
  const whole = /^\uE000([^\uE000\uE001]*)\uE001$/.exec(text);
  if (whole) return valueAt(values, whole[1]!);
  return text.replace(MARKER, (_, path: string) => textOf(valueAt(values, path)));
}

/** Statics and holes being collected; the last static is the one being written. */
class Parts {
  readonly statics: string[] = [''];
  readonly holes: Hole[] = [];
  /** One hole per mark for its serialized form, so a page computes it once per request. */
  private readonly forms = new Map<MarkName, Hole>();
  form(mark: MarkName): void {
    let hole = this.forms.get(mark);
    if (!hole) this.forms.set(mark, hole = { deps: [mark], fill: (values) => serializeProp(values[mark]) });
    this.holes.push(hole);
    this.statics.push('');
  }
  text(text: string): void {
    if (text.includes(MARK_OPEN) || text.includes(MARK_CLOSE)) throw new ShellError('a marker the page broke or transformed');
    this.statics[this.statics.length - 1] += text;
  }
  hole(deps: readonly MarkName[], fill: (values: Values) => string): void {
    this.holes.push({ deps, fill });
    this.statics.push('');
  }
  /** Text with markers matched by `pattern` turned into holes by `fill(path, match)`. */
  markers(text: string, pattern: RegExp, where: string, fill: (path: string, match: RegExpExecArray) => (values: Values) => string): void {
    let last = 0;
    for (const match of text.matchAll(pattern)) {
      const path = (match[1] ?? match[2])!;
      this.text(text.slice(last, match.index));
      this.hole([markOf(path, where)], fill(path, match));
      last = match.index + match[0].length;
    }
    this.text(text.slice(last));
  }
}

/** Where a marked value sits in an island's props, and what goes there per request. */
interface Substitution { path: Array<string | number>; mark: MarkName; make: (values: Values) => unknown }

function findMarks(node: unknown, path: Array<string | number>, where: string, out: Substitution[]): void {
  if (typeof node === 'string') {
    for (const [, p] of node.matchAll(MARKER)) out.push({ path, mark: markOf(p!, where), make: (values) => fillString(node, values) });
    return;
  }
  if (node === null || typeof node !== 'object') return;
  const mark = MARK_FORMS.get(serializeProp(node));
  if (mark) {
    out.push({ path, mark, make: (values) => values[mark] });
    return;
  }
  for (const [key, child] of Object.entries(node)) findMarks(child, [...path, Array.isArray(node) ? Number(key) : key], where, out);
}

/** A copy of `props` with the substitutions made, copying only the objects on their paths. */
function substitute(props: Record<string, unknown>, subs: readonly Substitution[], values: Values): Record<string, unknown> {
  const root: Record<string, unknown> = { ...props };
  for (const { path, make } of subs) {
    let node: Record<string | number, unknown> = root;
    for (let i = 0; i < path.length - 1; i++) {
      const child = node[path[i]!] as Record<string, unknown>;
      node = node[path[i]!] = (Array.isArray(child) ? [...child] : { ...child }) as Record<string | number, unknown>;
    }
    node[path.at(-1)!] = make(values);
  }
  return root;
}

const attr = (tag: string, name: string) => new RegExp(` ${name}="([^"]*)"`).exec(tag)?.[1];

/** The end of the island whose open tag ends at `from`: just past its `</astro-island>`. */
function islandEnd(html: string, from: number): number {
  const tags = /<astro-island\b|<\/astro-island>/g;
  tags.lastIndex = from;
  let depth = 1;
  for (let m = tags.exec(html); m; m = tags.exec(html)) {
    depth += m[0] === '</astro-island>' ? -1 : 1;
    if (depth === 0) return m.index + m[0].length;
  }
  throw new ShellError('an <astro-island> without its end');
}

/** Where two texts first differ, for a message a person can act on. */
function firstDifference(expected: string, got: string): string {
  let i = 0;
  while (i < expected.length && expected[i] === got[i]) i++;
  return `at ${i}: expected ${JSON.stringify(expected.slice(i, i + 60))}, got ${JSON.stringify(got.slice(i, i + 60))}`;
}

const END = '<!--astro:end-->';
const AWAIT = ' await-children>';

/** The props attribute: each marked value's serialized form, then markers inside strings. */
function compileProps(propsText: string, parts: Parts, where: string): void {
  let rest = propsText;
  while (rest.length) {
    let next: { index: number; form: string; mark: MarkName } | undefined;
    for (const [form, mark] of MARK_FORMS) {
      const index = rest.indexOf(form);
      if (index !== -1 && (!next || index < next.index)) next = { index, form, mark };
    }
    parts.markers(next ? rest.slice(0, next.index) : rest, PROP_MARKER, where, (path, match) => match[1] !== undefined
      ? (values) => { const v = valueAt(values, path); return v == null ? 'null' : propString(String(v)); }
      : (values) => escapeAstro(JSON.stringify(textOf(valueAt(values, path))).slice(1, -1)));
    if (!next) return;
    parts.form(next.mark);
    rest = rest.slice(next.index + next.form.length);
  }
}

/** Picks the renderer of an island: html-renderer.ts when it reproduces the build's HTML, else React. */
async function islandRenderer(name: string, exportName: string, props: Record<string, unknown>, html: string, prefix: string,
  code: IslandCode, slow: ShellTemplate['slowIslands']): Promise<(props: Record<string, unknown>) => string> {
  const component = code.fast[name]?.[exportName];
  try {
    if (!component) throw new Unsupported('no server build of this island');
    const fast = renderToHtml(component, props);
    if (fast !== html) throw new Unsupported(`html-renderer.ts differs from React ${firstDifference(html, fast)}`);
    return (p) => renderToHtml(component, p);
  } catch (error) {
    if (!(error instanceof Unsupported)) throw error;
    const react = await code.loadReact();
    const viaReact = react(name, exportName, props, prefix);
    if (viaReact !== html) throw new ShellError(`island ${name}: React's HTML differs from the build's ${firstDifference(html, viaReact)}`);
    slow.push({ name, reason: error.message });
    return (p) => react(name, exportName, p, prefix);
  }
}

/** Compiles one island with marked props: its props with holes, then its HTML as a hole. */
async function compileIsland(tag: string, inner: string, parts: Parts, code: IslandCode, slow: ShellTemplate['slowIslands']): Promise<void> {
  const url = attr(tag, 'component-url') ?? '';
  const name = /([^/.]+)\.[^/]*$/.exec(url)?.[1] ?? url;
  const exportName = attr(tag, 'component-export') ?? 'default';
  const where = `island ${name}`;
  if (!tag.endsWith(AWAIT) || !inner.endsWith(END)) throw new ShellError(`${where}: rendered no HTML at build time`);
  const html = inner.slice(0, -END.length);
  if (html.includes('<astro-slot') || html.includes('<template data-astro-template')) throw new ShellError(`${where}: islands with slots cannot take marked values`);
  const propsText = attr(tag, 'props')!;
  const propsAt = tag.indexOf(' props="') + ' props="'.length;
  parts.text(tag.slice(0, propsAt));
  compileProps(propsText, parts, where);

  const props = decodeProps(propsText);
  delete props.class; // Astro renders without it (it styles the island's wrapper only)
  const subs: Substitution[] = [];
  findMarks(props, [], where, subs);
  const render = await islandRenderer(name, exportName, props, html, attr(tag, 'prefix') ?? '', code, slow);
  const open = tag.slice(propsAt + propsText.length);
  const openEmpty = open.slice(0, -AWAIT.length) + '>';
  // Astro leaves out await-children and the end comment when an island renders nothing.
  parts.hole([...new Set(subs.map((s) => s.mark))], (values) => {
    const out = render(substitute(props, subs, values));
    return out ? `${open}${out}${END}</astro-island>` : `${openEmpty}</astro-island>`;
  });
}

/** Text outside re-rendered islands: markers become their value's text, escaped as Astro escapes. */
function compileText(text: string, parts: Parts): void {
  for (const block of text.matchAll(/<(script|style)\b[\s\S]*?<\/\1>/g)) {
    if (block[0].includes(MARK_OPEN)) throw new ShellError(`a marked value inside a <${block[1]}> (its CSP hash would change per request)`);
  }
  parts.markers(text, MARKER, 'page markup', (path) => (values) => escapeAstro(textOf(valueAt(values, path))));
}

/** Cuts a built shell into statics and holes; `code` is loaded only when the page has islands with marked props. */
export async function compileShell(html: string, code: () => Promise<IslandCode>): Promise<ShellTemplate> {
  const parts = new Parts();
  const slowIslands: ShellTemplate['slowIslands'] = [];
  const opens = /<astro-island\b[^>]*>/g;
  let last = 0;
  let islands: IslandCode | undefined;
  for (let m = opens.exec(html); m; m = opens.exec(html)) {
    const tag = m[0];
    if (!attr(tag, 'props')?.includes(MARK_OPEN)) continue;
    const end = islandEnd(html, m.index + tag.length);
    compileText(html.slice(last, m.index), parts);
    const inner = html.slice(m.index + tag.length, end - '</astro-island>'.length);
    if (/<astro-island\b[^>]*\sprops="[^"]*\uE000/.test(inner)) throw new ShellError('an island with marked props inside another');
    await compileIsland(tag, inner, parts, islands ??= await code(), slowIslands);
    last = end;
    opens.lastIndex = end;
  }
  compileText(html.slice(last), parts);
  return { statics: parts.statics, holes: parts.holes, slowIslands };
}

/**
 * Fills the holes that depend only on values known now (`known`: the runtime settings)
 * into the statics, leaving the holes that need the rest (which must then be given
 * `known` along with the per-request values).
 */
export function bindShell(template: ShellTemplate, known: Values): ShellTemplate {
  const statics = [template.statics[0]!];
  const holes: Hole[] = [];
  template.holes.forEach((hole, i) => {
    const next = template.statics[i + 1]!;
    if (hole.deps.every((mark) => mark in known)) {
      statics[statics.length - 1] += hole.fill(known) + next;
    } else {
      holes.push(hole);
      statics.push(next);
    }
  });
  return { statics, holes, slowIslands: template.slowIslands };
}
