/**
 * Security headers set on every response, static files included. HTML pages carry the
 * Content-Security-Policy Astro computed for them (script and style hashes); everything
 * else gets a policy that allows nothing to run.
 */

/** For responses that are not HTML pages: nothing may load, nothing may frame it. */
export const NON_HTML_CSP = "default-src 'none'; frame-ancestors 'none'; base-uri 'none'";

/**
 * Headers every response carries: the answers of the API and the command-line endpoints
 * (text, JSON, CSV, all read cross-origin through CORS) get exactly these, with NON_HTML_CSP.
 */
export const MACHINE_SECURITY_HEADERS: Readonly<Record<string, string>> = {
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'strict-origin-when-cross-origin',
  'permissions-policy': 'geolocation=(self), camera=(), microphone=(), payment=(), usb=(), interest-cohort=()',
  'x-frame-options': 'DENY',
};

/**
 * Pages and static files also get COOP, which isolates our windows from their openers, and
 * CORP, which keeps our files out of other sites' no-cors loads. Neither guards anything on
 * an answer that CORS already lets every origin read, and each header is a cost on every
 * request of the command-line endpoints. (OWASP's REST Security cheat sheet lists neither
 * for API answers.)
 */
export const BASE_SECURITY_HEADERS: Readonly<Record<string, string>> = {
  ...MACHINE_SECURITY_HEADERS,
  'cross-origin-opener-policy': 'same-origin',
  'cross-origin-resource-policy': 'same-origin',
};

/** HSTS, sent only when TLS ends at a trusted proxy that says the request came over https. */
export const HSTS = 'max-age=31536000; includeSubDomains';

/** Adds `frame-ancestors 'none'` to a page policy when Astro's policy lacks it. */
export function withFrameAncestors(csp: string): string {
  return /frame-ancestors/.test(csp) ? csp : `${csp}; frame-ancestors 'none'`;
}
