/**
 * Which navigation link marks the page shown: the link to the page itself is the
 * current page; otherwise the link of the section the page sits in (the longest link
 * path the page's path continues, or a section a path family belongs to: /blog/x under
 * /blog, /tool/x under /tools). nav-current.test.ts has the rows.
 */

/** Path families whose hub has another name (/tool/x is listed on /tools). */
const SECTION_OF: ReadonlyArray<readonly [string, string]> = [
  ['/tool/', '/tools'], ['/guide/', '/guides'], ['/ip-lookup/', '/cities'], ['/isp/', '/isps'], ['/lookup/', '/ip-3'],
];

/** The aria-current value per link href: 'page' for the page itself, 'true' for its section. */
export function currentIn(hrefs: readonly string[], path: string): Map<string, 'page' | 'true'> {
  const marks = new Map<string, 'page' | 'true'>();
  if (hrefs.includes(path)) return marks.set(path, 'page');
  const hub = SECTION_OF.find(([prefix]) => path.startsWith(prefix))?.[1];
  const section = hrefs
    .filter((h) => h !== '/' && (path.startsWith(`${h}/`) || h === hub))
    .sort((a, b) => b.length - a.length)[0];
  if (section) marks.set(section, 'true');
  return marks;
}
