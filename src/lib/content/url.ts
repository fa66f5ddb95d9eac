/** Page URLs as search engines should see them: no `.html` (prerendering reports it), no trailing slash. */

/** `/trust.html` → `/trust`, `/blog/` → `/blog`, `/` stays `/`. */
export function cleanPath(pathname: string): string {
  return pathname.replace(/\.html$/, '').replace(/(.)\/$/, '$1').replace(/\/index$/, '') || '/';
}

/** The absolute canonical URL of a page path on the site's origin. */
export function canonicalUrl(pathname: string, site: URL | undefined): string {
  return new URL(cleanPath(pathname), site ?? 'http://localhost:4321').href;
}
