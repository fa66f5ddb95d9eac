/** URL slugs for content: the city rule (name → `/ip-lookup/{slug}`) and its check. */

/**
 * The slug of a city page: the name lowercased, accents dropped, punctuation removed,
 * spaces turned to hyphens (`São Paulo` → `sao-paulo`, `St. Louis` → `st-louis`).
 */
export function citySlug(name: string): string {
  return name
    .normalize('NFD')
    .replace(/\p{M}/gu, '')
    .toLowerCase()
    .replace(/[^a-z0-9\s-]/g, '')
    .trim()
    .replace(/[\s-]+/g, '-');
}
