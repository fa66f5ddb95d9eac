/**
 * The checks a list source's new version passes before it replaces the last good one
 * (list-update.ts), so that no single upstream answer can change what every visitor is told:
 * - **width**: no range wider than the source allows (list-sources.ts `widest`: Tor exits
 *   are single addresses; no list needs a /0). Never relaxed.
 * - **change**: against the last good version, the number of ranges and the address space
 *   covered in each family stay within CHANGE_FACTOR of it (a list shrunk from 1,300 exits to
 *   one, or a hosting list grown to half the Internet, is refused). A family the last good
 *   version did not cover may appear (within the width bound); one it covered may not vanish.
 *   A version refused for its change alone is taken once the upstream has kept serving the
 *   same bytes for CONFIRM_MS: a real reshuffle gets through in a day, one bad answer never.
 * - with no last good version (a first start on an empty DATA_DIR), the width bound and the
 *   non-empty rule (list-update.ts) apply: a first list names the addresses it names, and
 *   cannot make every visitor anything.
 * Tested row by row in list-bounds.test.ts, and through the refresher in tests/list-refresh.test.ts.
 */
import type { ParsedList } from '../data/range-list.ts';

/** How far a new version's ranges and covered space may be from the last good one's: at most this many times more, or fewer. */
export const CHANGE_FACTOR = 2;
/** Added to both range counts before they are compared, so a list of 4 may become 2 while one of 10 may not become 1. */
const RANGE_SLACK = 2;
/** How long the upstream must keep serving one refused version before it is taken, ms. */
export const CONFIRM_MS = 24 * 3_600_000;

/** A version's size: its ranges (after merging), and the addresses it covers per family. */
export interface ListShape { ranges: number; space4: number; space6: number }

/** A parsed list's shape. IPv6 space is counted in addresses as a float: only ratios are read. */
export function shapeOf({ list }: ParsedList): ListShape {
  let space4 = 0;
  let space6 = 0;
  for (let row = 0; row < list.v4Count; row++) space4 += list.last4(row) - list.first4(row) + 1;
  for (let row = list.v4Count; row < list.v4Count + list.v6Count; row++) space6 += Number(list.last6(row) - list.first6(row) + 1n);
  return { ranges: list.v4Count + list.v6Count, space4, space6 };
}

/** Why a version is refused for a range wider than `widest` allows ([IPv4, IPv6] prefix lengths); undefined when none is. */
export function widthProblem(parsed: ParsedList, widest: readonly [number, number]): string | undefined {
  const [v4, v6] = widest;
  if (parsed.widest[4] < v4) return `it holds an IPv4 /${parsed.widest[4]}, wider than the /${v4} this list allows`;
  if (parsed.widest[6] < v6) return `it holds an IPv6 /${parsed.widest[6]}, wider than the /${v6} this list allows`;
  return undefined;
}

const outside = (last: number, next: number) => next * CHANGE_FACTOR < last || next > last * CHANGE_FACTOR;

/** Why `next` is too far from the last good version `last`; undefined when it is within the bounds. */
export function changeProblem(last: ListShape, next: ListShape): string | undefined {
  if (outside(last.ranges + RANGE_SLACK, next.ranges + RANGE_SLACK)) {
    return `it holds ${next.ranges} ranges where the last good version held ${last.ranges} (more than ${CHANGE_FACTOR}x ${next.ranges < last.ranges ? 'fewer' : 'more'})`;
  }
  for (const [family, key] of [['IPv4', 'space4'], ['IPv6', 'space6']] as const) {
    if (last[key] === 0) continue;
    if (outside(last[key], next[key])) {
      return `it covers ${(next[key] / last[key]).toPrecision(2)}x the ${family} space of the last good version (the bound is ${CHANGE_FACTOR}x either way)`;
    }
  }
  return undefined;
}
