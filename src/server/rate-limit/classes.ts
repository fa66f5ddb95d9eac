/**
 * The named rate limits a route may ask for (`limit` in a row of http/route-table.ts): each
 * is a setting of the configuration that gives a client its requests a minute (0 turns it
 * off), and the prefix that keeps its keys apart from the other classes' in the one store.
 * A feature with a limit of its own adds a class here, and names it in its route row.
 */

/** Every per-minute limit of the configuration: the API's, the pages', the port check's, the DNS leak test's starts. */
export interface LimitSettings { rateLimit: number; pageRateLimit: number; portCheck: { perMinute: number }; dnsLeakRateLimit: number }

export const LIMIT_CLASSES = {
  /** The API (but /api/config, the same for everyone) and whatever answers the command line (RATE_LIMIT). */
  api: { perMinute: (s: LimitSettings) => s.rateLimit, scope: '' },
  /** Starts of a DNS leak test: each holds a token 2 minutes (DNS_LEAK_RATE_LIMIT). */
  'dns-leak-start': { perMinute: (s: LimitSettings) => s.dnsLeakRateLimit, scope: 'dns-leak ' },
  /** The port check, stricter: each check is a connect (PORT_CHECK_RATE_LIMIT). */
  'port-check': { perMinute: (s: LimitSettings) => s.portCheck.perMinute, scope: 'port ' },
  /** The on-demand pages, asked before a page is looked up (PAGE_RATE_LIMIT). */
  page: { perMinute: (s: LimitSettings) => s.pageRateLimit, scope: 'page ' },
} as const;

/** The name of a rate-limit class. */
export type LimitClass = keyof typeof LIMIT_CLASSES;

/**
 * Whether any limit counts (0 turns each off): then the workers need a store, and their
 * primary must answer it, or their hits time out and every limit fails open.
 */
export const anyLimitOn = (settings: LimitSettings): boolean =>
  Object.values(LIMIT_CLASSES).some((c) => c.perMinute(settings) > 0);
