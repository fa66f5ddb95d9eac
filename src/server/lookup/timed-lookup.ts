/**
 * One lookup timed for Server-Timing, with an invalid address as undefined rather than a
 * throw: what every handler that looks an address up needs (handlers/ answer the undefined
 * with http/handler.ts's `invalidIp`).
 */
import { InvalidIpError, type Engine, type LookupContext } from './engine.ts';
import type { LookupResponse } from '../../lib/record.ts';

/** Looks an address up and times it for Server-Timing; undefined when the address is invalid. */
export function timedLookup(engine: Engine, ip: string, ctx?: LookupContext): { result: LookupResponse; ms: number } | undefined {
  const start = performance.now();
  try {
    const result = engine.lookup(ip, ctx);
    return { result, ms: performance.now() - start };
  } catch (error) {
    if (error instanceof InvalidIpError) return undefined;
    throw error;
  }
}
