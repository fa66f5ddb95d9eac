/**
 * The one backoff rule of the server: after a run of failures, wait `firstMs`, then twice
 * that, and so on, never more than `maxMs` (the analytics queue's writes, the data sources'
 * refetches, the cluster's replacement of workers that die before they listen).
 */

/**
 * How long to wait after `failures` failures in a row: none before the first failure,
 * `firstMs` after it, doubling with each further one up to `maxMs`.
 */
export function backoffMs(failures: number, firstMs: number, maxMs: number): number {
  if (failures <= 0) return 0;
  // The exponent is capped so a long outage cannot reach 2 ** 1024 (Infinity, and NaN times 0).
  return Math.min(maxMs, firstMs * 2 ** Math.min(failures - 1, 52));
}
