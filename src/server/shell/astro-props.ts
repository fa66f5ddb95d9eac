/**
 * Astro's side of an island, as the server needs it to fill a shell: the escaping Astro
 * applies to markup text and attributes, how it writes a prop value into an island's
 * `props` attribute (astro/dist/runtime/server/serialize.js: `[type, value]` pairs,
 * then HTML-escaped), and how the browser reads it back (the island's client script).
 * Writing goes straight to the escaped text, without the intermediate arrays Astro
 * builds: this runs once per request for the visitor's record.
 */
import { escapeAstro } from './escape.ts';
import { Unsupported } from './react-subset.ts';

/** A JSON string literal, escaped as it stands in a props attribute. */
export const propString = (text: string): string => escapeAstro(JSON.stringify(text));

const isPlainData = (value: object) => {
  const proto = Object.getPrototypeOf(value);
  return proto === Object.prototype || proto === null;
};

/**
 * Serialized frozen objects: they never change, and the lookup engine shares them between
 * records (the device of a User-Agent, the sources used, a reserved address's verdict).
 */
const frozen = new WeakMap<object, string>();

/**
 * One prop value in Astro's serialized form, escaped for the props attribute:
 * `[0,value]` for plain values and objects, `[1,[...]]` for arrays, `[11,±1]` for
 * infinities. Dates, maps, sets and other classes throw Unsupported (no record has them).
 */
export function serializeProp(value: unknown): string {
  if (typeof value === 'object' && value !== null && Object.isFrozen(value)) {
    let text = frozen.get(value);
    if (text === undefined) frozen.set(value, text = serializeValue(value));
    return text;
  }
  return serializeValue(value);
}

function serializeValue(value: unknown): string {
  switch (typeof value) {
    case 'string': return `[0,${propString(value)}]`;
    case 'number':
      if (Number.isFinite(value)) return `[0,${value}]`;
      return value === Infinity ? '[11,1]' : value === -Infinity ? '[11,-1]' : '[0,null]';
    case 'boolean': return value ? '[0,true]' : '[0,false]';
    case 'undefined': return '[0]';
    case 'object': {
      if (value === null) return '[0,null]';
      if (Array.isArray(value)) return `[1,[${value.map(serializeProp).join(',')}]]`;
      if (!isPlainData(value)) throw new Unsupported(`a prop of class ${value.constructor?.name}`);
      let out = '[0,{';
      let first = true;
      for (const key in value) {
        if (!Object.hasOwn(value, key)) continue;
        out += (first ? '' : ',') + propString(key) + ':' + serializeProp((value as Record<string, unknown>)[key]);
        first = false;
      }
      return out + '}]';
    }
    default: throw new Unsupported(`a prop of type ${typeof value}`);
  }
}

const ENTITIES: Record<string, string> = { '&quot;': '"', '&amp;': '&', '&lt;': '<', '&gt;': '>', '&#39;': "'" };

/** Reads one `[type, value]` pair back, as the island's client script does. */
function revive([type, value]: [number, unknown]): unknown {
  switch (type) {
    case 0:
      if (value === null || typeof value !== 'object') return value;
      return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, revive(v as [number, unknown])]));
    case 1: return (value as Array<[number, unknown]>).map(revive);
    case 2: return new RegExp(value as string);
    case 3: return new Date(value as string);
    case 4: return new Map((value as Array<[number, unknown]>).map(revive) as Array<[unknown, unknown]>);
    case 5: return new Set((value as Array<[number, unknown]>).map(revive));
    case 6: return BigInt(value as string);
    case 7: return new URL(value as string);
    case 8: return new Uint8Array(value as number[]);
    case 9: return new Uint16Array(value as number[]);
    case 10: return new Uint32Array(value as number[]);
    case 11: return value === 1 ? Infinity : -Infinity;
    default: throw new Unsupported(`a prop of serialized type ${type}`);
  }
}

/** An island's `props` attribute (as it stands in the HTML) back into its props. */
export function decodeProps(attribute: string): Record<string, unknown> {
  const json = attribute.replace(/&(?:quot|amp|lt|gt|#39);/g, (entity) => ENTITIES[entity]!);
  const raw = JSON.parse(json) as Record<string, [number, unknown]>;
  return Object.fromEntries(Object.entries(raw).map(([k, v]) => [k, revive(v)]));
}
