/**
 * A packet budget per source for the UDP responders: a token bucket (`perSecond` packets a
 * second, up to `burst` at once) per IPv4 address or IPv6 /64 (one host usually owns a /64,
 * as the HTTP rate limit assumes in ../rate-limit/limit.ts). A responder answers a spoofed source,
 * so this is what bounds the traffic it can be made to send one victim.
 *
 * Each bucket is one number, the generic cell rate algorithm's "theoretical arrival time":
 * when the source's bucket will be full again. Memory is bounded: past `maxSources` tracked
 * sources the oldest tracked is forgotten (../utils/bounded-map.ts, `OldestFirst`). A spoofer who
 * churns that many sources to make it forget a victim buys the victim one more burst per
 * `maxSources` packets sent, which is no flood.
 */
import { parseIp } from '../../lib/ip-address.ts';
import { clientKey } from '../../lib/client-key.ts';
import { OldestFirst } from '../utils/bounded-map.ts';

export interface BudgetOptions {
  /** Packets a second a source may send in the long run. */
  perSecond: number;
  /** Packets a source may send at once, after a quiet spell of `burst / perSecond` seconds. */
  burst: number;
  /** Sources tracked at most. */
  maxSources: number;
  /** The clock in milliseconds (tests move it). */
  now?: () => number;
}

/** The bucket a source address counts against: its `clientKey` (an IPv4 address, also when IPv4-mapped, or an IPv6 /64). */
export function sourceKey(address: string): string {
  const parsed = parseIp(address.split('%')[0]!);
  return parsed ? clientKey(parsed) : address;
}

/** Packet budgets per source, in bounded memory. */
export class SourceBudget {
  /** Milliseconds one packet costs. */
  readonly #interval: number;
  /** How far ahead of now a source's full time may be and still let a packet through. */
  readonly #tolerance: number;
  readonly #maxSources: number;
  readonly #now: () => number;
  /** Per source key: when its bucket is full again (a time in the past means full now). */
  readonly #fullAt = new OldestFirst<string, number>();

  constructor({ perSecond, burst, maxSources, now = () => performance.now() }: BudgetOptions) {
    this.#interval = 1000 / perSecond;
    this.#tolerance = (burst - 1) * this.#interval;
    this.#maxSources = maxSources;
    this.#now = now;
  }

  /** Counts one packet from `address`; false when it is over the source's budget (drop it). */
  take(address: string): boolean {
    const key = sourceKey(address);
    const t = this.#now();
    const known = this.#fullAt.get(key);
    const fullAt = known === undefined || known < t ? t : known;
    if (fullAt - t > this.#tolerance) return false;
    this.#fullAt.set(key, fullAt + this.#interval);
    if (known === undefined && this.#fullAt.size > this.#maxSources) this.#fullAt.dropOldest();
    return true;
  }

  /** Sources tracked now (never more than `maxSources`). */
  get size(): number {
    return this.#fullAt.size;
  }
}
