/**
 * Values that may still be pending: a store in this process answers at once, one in another
 * process (Redis) with a promise. `andThen` applies a step to either without making a promise of
 * a value that is already there, so that a synchronous path (`/ip`, the memoised `/json`)
 * stays synchronous end to end. (Not named `then`: a module exporting `then` is a thenable,
 * and `await import()` of it would call it.)
 */

/** A value, or a promise of it. */
export type MaybePromise<T> = T | Promise<T>;

/** `f` applied to `x`: at once when `x` is a value, once it settles when it is a promise. */
export function andThen<T, U>(x: MaybePromise<T>, f: (value: T) => MaybePromise<U>): MaybePromise<U> {
  return x instanceof Promise ? x.then(f) : f(x);
}
