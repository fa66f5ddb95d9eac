/**
 * The data credit of every API and plain-text answer: DB-IP's licence asks for a credit
 * wherever its results are used, and a script reading /json never sees the site's footer.
 * A `Link` header (RFC 8288) with rel="license" points at /trust#credits, where each source
 * is named with its licence (content/site/credits.json). A header rather than a field of
 * /json: it reaches every answer (/ip, /country, the CSVs, errors) without changing a
 * body other code and clients parse, and it is written once into the header list wire.ts
 * builds at start, so it costs no work per request.
 */

/** Where the credits are, relative to the answer's own URL (RFC 8288 resolves it so). */
export const CREDITS_PATH = '/trust#credits';

/** The header every machine answer carries. */
export const DATA_CREDIT_HEADERS: Readonly<Record<string, string>> = { link: `<${CREDITS_PATH}>; rel="license"` };
