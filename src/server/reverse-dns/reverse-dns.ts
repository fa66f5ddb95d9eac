/**
 * An address's host name: reverse DNS (PTR), forward-confirmed (the name's A or AAAA
 * records must hold the address again; a name that does not is still given, said
 * unconfirmed). Asked through node's own resolver with a short timeout per question, a
 * bounded number of lookups in flight, and a bounded cache, so that a slow or hostile
 * resolver costs an answer its host name at worst, never its time or the process's memory.
 *
 * TTL: node gives the TTL of A/AAAA answers (`{ ttl: true }`) but not of PTR answers, so an
 * answer is kept for its forward records' TTL, at most MAX_TTL_S; a name without forward
 * records, or no name, is kept NEGATIVE_TTL_S; a failed question (timeout, refusal)
 * FAILED_TTL_S, so a resolver that is down is not asked again for every request.
 */
import { Resolver } from 'node:dns/promises';
import { isIP } from 'node:net';
import { formatIp, parseIp, reservedKind } from '../../lib/ip-address.ts';
import { BoundedMap } from '../utils/bounded-map.ts';
import { cleanHostname } from './hostname-text.ts';

/** An address's host name, null when it has none (or none could be had in time). */
export interface HostnameAnswer {
  hostname: string | null;
  /** Whether the name resolves back to the address. */
  hostname_confirmed: boolean;
}

export interface ReverseDns {
  /** The answer already known for `ip` (a canonical address), without asking anyone. */
  cached(ip: string): HostnameAnswer | undefined;
  /** The answer for an address (any form of it), asked when not cached; never rejects, at most about a second. */
  lookup(ip: string): Promise<HostnameAnswer>;
  /** One line for /healthz. */
  state(): string;
}

export interface ReverseDnsOptions {
  /** `host:port` of the resolvers; the system's when empty. */
  servers: readonly string[];
  /** Per question, in ms. */
  timeoutMs?: number;
  /** Lookups in flight at most; past it an address gets no name (not cached). */
  maxInFlight?: number;
  /** Addresses whose answers are kept. */
  cacheSize?: number;
}

/** Answer of an address that has no name, or when reverse DNS is off. */
export const NO_HOSTNAME: Readonly<HostnameAnswer> = Object.freeze({ hostname: null, hostname_confirmed: false });

export const TIMEOUT_MS = 500;
export const MAX_IN_FLIGHT = 64;
export const CACHE_SIZE = 50_000;
export const MAX_TTL_S = 3600;
export const NEGATIVE_TTL_S = 300;
export const FAILED_TTL_S = 30;

/** Reverse DNS turned off: every address has no name, and nobody is asked. */
export const REVERSE_DNS_OFF: ReverseDns = {
  cached: () => NO_HOSTNAME,
  lookup: () => Promise.resolve(NO_HOSTNAME),
  state: () => 'reverse-dns: off',
};

/** Whether `name`'s A records (IPv4) or AAAA records (IPv6) hold `ip`, and their shortest TTL. */
async function forward(resolver: Resolver, name: string, ip: string): Promise<{ confirmed: boolean; ttl: number }> {
  const records = isIP(ip) === 4 ? await resolver.resolve4(name, { ttl: true }) : await resolver.resolve6(name, { ttl: true });
  const confirmed = records.some((r) => {
    const parsed = parseIp(r.address);
    return parsed !== undefined && formatIp(parsed) === ip;
  });
  return { confirmed, ttl: Math.min(...records.map((r) => r.ttl)) };
}

/** Creates the resolver over `servers` (the system's resolvers when none are named). */
export function createReverseDns(options: ReverseDnsOptions): ReverseDns {
  const timeout = options.timeoutMs ?? TIMEOUT_MS;
  const resolver = new Resolver({ timeout, tries: 1 });
  if (options.servers.length > 0) resolver.setServers([...options.servers]);
  const maxInFlight = options.maxInFlight ?? MAX_IN_FLIGHT;
  const cache = new BoundedMap<string, { answer: HostnameAnswer; until: number }>(options.cacheSize ?? CACHE_SIZE);
  const inFlight = new Map<string, Promise<HostnameAnswer>>();
  let busy = 0;
  let failed = 0;

  const keep = (ip: string, answer: HostnameAnswer, ttlS: number) => {
    cache.set(ip, { answer: Object.freeze(answer), until: Date.now() + ttlS * 1000 });
    return answer;
  };

  async function ask(ip: string): Promise<HostnameAnswer> {
    let names: string[];
    const started = performance.now();
    try {
      names = await resolver.reverse(ip);
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      // c-ares reports a question nobody answered as ENOTFOUND too: only a quick one is a no.
      const answered = performance.now() - started < timeout;
      if ((code === 'ENOTFOUND' || code === 'ENODATA') && answered) return keep(ip, NO_HOSTNAME, NEGATIVE_TTL_S);
      failed++;
      return keep(ip, NO_HOSTNAME, FAILED_TTL_S);
    }
    // A name that is not a host name (control characters, 10 KB) is no name.
    const hostname = names.length > 0 ? cleanHostname(names[0]!) : null;
    if (hostname === null) return keep(ip, NO_HOSTNAME, NEGATIVE_TTL_S);
    try {
      const { confirmed, ttl } = await forward(resolver, hostname, ip);
      return keep(ip, { hostname, hostname_confirmed: confirmed }, Math.min(ttl, MAX_TTL_S));
    } catch {
      return keep(ip, { hostname, hostname_confirmed: false }, NEGATIVE_TTL_S);
    }
  }

  function cached(ip: string): HostnameAnswer | undefined {
    const entry = cache.get(ip);
    return entry && entry.until > Date.now() ? entry.answer : undefined;
  }

  function lookup(text: string): Promise<HostnameAnswer> {
    const known = cached(text);
    if (known) return Promise.resolve(known);
    const parsed = parseIp(text.trim());
    // Special-purpose addresses have no name anyone outside would give.
    if (!parsed || reservedKind(parsed)) return Promise.resolve(NO_HOSTNAME);
    const ip = formatIp(parsed);
    if (ip !== text) return lookup(ip);
    const pending = inFlight.get(ip);
    if (pending) return pending;
    if (busy >= maxInFlight) return Promise.resolve(NO_HOSTNAME);
    busy++;
    const started = ask(ip).finally(() => { busy--; inFlight.delete(ip); });
    inFlight.set(ip, started);
    return started;
  }

  return {
    cached,
    lookup,
    state: () => `reverse-dns: on (${options.servers.length ? options.servers.join(', ') : 'system resolvers'}; ${cache.size} cached, ${busy} in flight, ${failed} failed)`,
  };
}
