/**
 * The skip gate of cases that need a service this machine may lack (a PostgreSQL, a Redis,
 * the PostgreSQL server binaries). Locally a missing service skips those cases with one
 * message; under CI (any non-empty `CI`: GitHub's `true`, others' `1`) the same cases run
 * and fail, saying what is missing. The gate is per case, never per file: the cases of the
 * same file that need nothing run either way.
 */

/** Whether the tests run under CI: `CI` set to anything but the empty string. */
export const underCi = (env: NodeJS.ProcessEnv = process.env): boolean => Boolean(env.CI);

/** A service some cases need. */
export interface RequiredService<T> {
  /** Whether those cases skip: the service is missing and this is not CI. */
  skip: boolean;
  /** The service, called inside a case; throws, naming what is missing, when there is none (under CI). */
  get(): T;
}

/**
 * The gate for a service: `value` is the service (a URL, a directory) or undefined when it
 * is missing, `missing` says what a run lacks then ("TEST_DATABASE_URL is not set").
 */
export function requiredService<T>(value: T | undefined, missing: string, env: NodeJS.ProcessEnv = process.env): RequiredService<T> {
  const skip = value === undefined && !underCi(env);
  if (skip) console.warn(`${missing}: skipping the cases that need it`);
  return {
    skip,
    get() {
      if (value === undefined) throw new Error(`${missing}, and CI is set: these cases must run under CI`);
      return value;
    },
  };
}
