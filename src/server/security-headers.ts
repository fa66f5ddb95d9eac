/**
 * Security headers set on every response, static files included. HTML pages carry the
 * Content-Security-Policy Astro computed for them (script and style hashes); everything
 * else gets a policy that allows nothing to run.
 */

/** For responses that are not HTML pages: nothing may load, nothing may frame it. */
export const NON_HTML_CSP = "default-src 'none'; frame-ancestors 'none'; base-uri 'none'";

/** Headers every response carries. */
export const BASE_SECURITY_HEADERS: Readonly<Record<string, string>> = {
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'strict-origin-when-cross-origin',
  'permissions-policy': 'geolocation=(self), camera=(), microphone=(), payment=(), usb=(), interest-cohort=()',
  'x-frame-options': 'DENY',
  'cross-origin-opener-policy': 'same-origin',
  'cross-origin-resource-policy': 'same-origin',
};

/** HSTS, sent only when TLS ends at a trusted proxy that says the request came over https. */
export const HSTS = 'max-age=31536000; includeSubDomains';

/** Adds `frame-ancestors 'none'` to a page policy when Astro's policy lacks it. */
export function withFrameAncestors(csp: string): string {
  return /frame-ancestors/.test(csp) ? csp : `${csp}; frame-ancestors 'none'`;
}
