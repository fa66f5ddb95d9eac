/**
 * Astro's island props, as its server writes them into `<astro-island props="…">` and its
 * client reads them back (astro/runtime/server/serialize.js): each value as `[type, value]`,
 * the whole JSON-encoded and HTML-escaped. The prebuilt `/` shell writes the visitor's
 * record into that attribute itself, so it must write it exactly as Astro would.
 */

/** Astro's PROP_TYPE codes that a lookup record and the page's texts use. */
const VALUE = 0;
const JSON_ARRAY = 1;
const DATE = 3;
const INFINITY = 11;

type Serialized = [number, unknown?];

/** A serialized value back to its value (the client's reviver). */
function fromSerializedForm([type, value]: Serialized): unknown {
  switch (type) {
    case VALUE:
      if (value === null || typeof value !== 'object') return value;
      return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, fromSerializedForm(v as Serialized)]));
    case JSON_ARRAY: return (value as Serialized[]).map(fromSerializedForm);
    case DATE: return new Date(value as string);
    case INFINITY: return Number.POSITIVE_INFINITY * (value as number);
    default: throw new TypeError(`astro-props: prop type ${type} is not supported`);
  }
}

/** Astro's escapeHTML (astro/runtime/server/escape.js). */
const ENTITY: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', "'": '&#39;', '"': '&quot;' };
const ESCAPABLE = /[&<>'"]/g;
export const escapeAttribute = (value: string): string => value.replace(ESCAPABLE, (c) => ENTITY[c]!);
const UNESCAPABLE = /&(amp|lt|gt|#39|quot);/g;
const CHARACTER: Record<string, string> = { amp: '&', lt: '<', gt: '>', '#39': "'", quot: '"' };
const unescapeAttribute = (value: string): string => value.replace(UNESCAPABLE, (_, name: string) => CHARACTER[name]!);

/** A `props` attribute's value (escaped) back to the props object. */
export const readProps = (attribute: string): Record<string, unknown> =>
  fromSerializedForm([VALUE, JSON.parse(unescapeAttribute(attribute))]) as Record<string, unknown>;

/** A string that JSON and HTML leave alone: no quote, backslash, control, `&<>'` or surrogate. */
const PLAIN = /^[^"\\\u0000-\u001f&<>'\ud800-\udfff]*$/;
const quoted = (text: string): string => PLAIN.test(text) ? `&quot;${text}&quot;` : escapeAttribute(JSON.stringify(text));

/**
 * One prop's value as it appears inside a `props` attribute: in Astro's serialized form
 * (convertToSerializedForm), JSON-encoded and HTML-escaped, written in one pass. Covers
 * what a lookup record holds (objects, arrays, strings, numbers, booleans, null, undefined);
 * anything else throws, and the page is rendered through Astro instead.
 */
export function propAttribute(value: unknown): string {
  switch (typeof value) {
    case 'string': return `[${VALUE},${quoted(value)}]`;
    case 'number':
      if (value === Number.POSITIVE_INFINITY) return `[${INFINITY},1]`;
      if (value === Number.NEGATIVE_INFINITY) return `[${INFINITY},-1]`;
      return `[${VALUE},${JSON.stringify(value)}]`;
    case 'boolean': return `[${VALUE},${value}]`;
    case 'undefined': return `[${VALUE}]`;
    case 'object': {
      if (value === null) return `[${VALUE},null]`;
      if (Array.isArray(value)) return `[${JSON_ARRAY},[${value.map(propAttribute).join(',')}]]`;
      const prototype = Object.getPrototypeOf(value);
      if (prototype === Object.prototype || prototype === null) {
        let out = '';
        for (const key of Object.keys(value)) out += `${out ? ',' : ''}${quoted(key)}:${propAttribute((value as Record<string, unknown>)[key])}`;
        return `[${VALUE},{${out}}]`;
      }
    }
  }
  throw new TypeError(`astro-props: cannot write a ${Object.prototype.toString.call(value)} as a prop`);
}
