/**
 * Hand-written checks of the JSON the browser reads: a few combinators, each a TypeScript
 * type guard, that accept what the matching zod schema accepts. The browser checks our API's
 * answers with these instead of zod, whose code was a good part of the script `/` loads
 * (docs/benchmarks.md, "The script `/` loads"); the schemas stay the contract on the server
 * and in the tests (src/lib/answer-guards.ts builds the guards, and its test holds each to
 * its schema).
 */

/** Whether a value has the shape T; narrows it when it has. */
export type Guard<T> = (value: unknown) => value is T;

/** A JSON string. */
export const isString: Guard<string> = (value): value is string => typeof value === 'string';

/** A finite number, as zod's `z.number()` wants (JSON has no other). */
export const isNumber: Guard<number> = (value): value is number => Number.isFinite(value);

export const isBoolean: Guard<boolean> = (value): value is boolean => typeof value === 'boolean';

/** A number from `min` to `max`, both included (zod's `gte` and `lte`). */
export function numberIn(min: number, max: number): Guard<number> {
  return (value): value is number => isNumber(value) && value >= min && value <= max;
}

/** One of the listed strings (zod's `z.enum`). */
export function oneOf<const T extends readonly string[]>(values: T): Guard<T[number]> {
  return (value): value is T[number] => values.includes(value as string);
}

export function nullable<T>(guard: Guard<T>): Guard<T | null> {
  return (value): value is T | null => value === null || guard(value);
}

/** Absent or undefined, or else what `guard` accepts (zod's `z.optional`). */
export function optional<T>(guard: Guard<T>): Guard<T | undefined> {
  return (value): value is T | undefined => value === undefined || guard(value);
}

/** An array of at most `max` items, each accepted by `guard`. */
export function arrayOf<T>(guard: Guard<T>, max = Infinity): Guard<T[]> {
  return (value): value is T[] => Array.isArray(value) && value.length <= max && value.every((item) => guard(item));
}

/** Either shape (zod's `z.union` of two). */
export function either<A, B>(a: Guard<A>, b: Guard<B>): Guard<A | B> {
  return (value): value is A | B => a(value) || b(value);
}

/**
 * An object (not null, not an array) whose every named field its guard accepts; other fields
 * are let through, as zod's `z.object` does. Give T: every field of T needs a guard then,
 * the optional ones included, so a field added to a schema cannot go unchecked here.
 */
export function object<T>(shape: { [K in keyof T]-?: Guard<T[K]> }): Guard<T> {
  const fields = Object.entries(shape) as Array<[string, Guard<unknown>]>;
  return (value): value is T => typeof value === 'object' && value !== null && !Array.isArray(value)
    && fields.every(([key, guard]) => guard((value as Record<string, unknown>)[key]));
}
