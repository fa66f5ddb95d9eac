/**
 * Security headers set on every response, static files included. HTML pages carry the
 * Content-Security-Policy Astro computed for them (script and style hashes); everything
 * else gets a policy that allows nothing to run.
 */

/** For responses that are not HTML pages: nothing may load, nothing may frame it. */
export const NON_HTML_CSP = "default-src 'none'; frame-ancestors 'none'; base-uri 'none'";

/**
 * The answers of the API and the command-line endpoints (text, JSON, CSV) carry nosniff,
 * so a browser never reads one as anything but its declared type, and NON_HTML_CSP, which
 * forbids loading, running and framing should a browser open one as a document.
 * The document headers of pages (Referrer-Policy, Permissions-Policy, X-Frame-Options,
 * COOP, CORP) guard nothing on these answers: they link to nothing, run nothing, and CORS
 * already lets every origin read them; CSP's frame-ancestors supersedes X-Frame-Options.
 * Each header is a cost on every request of /ip (bench/api.mjs's replay rows show what).
 * OWASP's REST Security cheat sheet lists for API answers nosniff, CSP frame-ancestors
 * 'none', a precise Content-Type, no-store and HSTS, which these answers carry (no-store
 * on per-visitor answers, HSTS behind a TLS proxy), and X-Frame-Options, which they leave
 * out: where both are sent, browsers obey frame-ancestors and ignore X-Frame-Options.
 */
export const MACHINE_SECURITY_HEADERS: Readonly<Record<string, string>> = {
  'x-content-type-options': 'nosniff',
  'content-security-policy': NON_HTML_CSP,
};

/**
 * Pages and static files: nosniff, plus what only documents use. COOP isolates our windows
 * from their openers; CORP keeps our files out of other sites' no-cors loads. The CSP of a
 * page or file is set with it (Astro's hashes for pages, NON_HTML_CSP for other files).
 */
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

/**
 * A page policy that lets the page load the DNS leak test's names (`https://<token>-1.<zone>/`,
 * src/stores/dns-leak.ts): `https://*.<zone>` joins connect-src when the site has a zone,
 * and the policy stays as it is without one (or for a zone that is not a plain host name).
 */
export function withDnsLeakZone(csp: string, zone: string | null): string {
  if (!zone || !/^[\w-]+(?:\.[\w-]+)*$/.test(zone)) return csp;
  return csp.replace(/(^|;\s*)(connect-src)([^;]*)/, (_, start: string, name: string, sources: string) => `${start}${name}${sources} https://*.${zone}`);
}
