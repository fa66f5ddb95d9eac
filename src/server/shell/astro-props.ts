/**
 * Astro's island props, as its server writes them into `<astro-island props="…">` and its
 * client reads them back (astro/runtime/server/serialize.js): each value as `[type, value]`,
 * the whole JSON-encoded and HTML-escaped. The prebuilt shell reads them back to render
 * the islands that take the page's record with the rest of their props.
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

/** Astro's escapeHTML (astro/runtime/server/escape.js), undone. */
const UNESCAPABLE = /&(amp|lt|gt|#39|quot);/g;
const CHARACTER: Record<string, string> = { amp: '&', lt: '<', gt: '>', '#39': "'", quot: '"' };
const unescapeAttribute = (value: string): string => value.replace(UNESCAPABLE, (_, name: string) => CHARACTER[name]!);

/** A `props` attribute's value (escaped) back to the props object. */
export const readProps = (attribute: string): Record<string, unknown> =>
  fromSerializedForm([VALUE, JSON.parse(unescapeAttribute(attribute))]) as Record<string, unknown>;
