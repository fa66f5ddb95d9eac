/**
 * Every content query the pages share: page metadata by path, editorial lists in file
 * order, blog posts newest first, and the copy of the lookup pages. Pages only (it reads
 * `astro:content`); islands get what they need as props.
 */
import { getCollection, getEntry, type CollectionEntry, type CollectionKey } from 'astro:content';

/** Title, description, h1 and intro of a hub or editorial page (content/site/pages.json). */
export async function pageMeta(path: string) {
  const entry = await getEntry('pages', path);
  if (!entry) throw new Error(`content/site/pages.json has no entry for ${path}`);
  return entry.data;
}

/** Every entry's data of a collection, in file order (`position`, set by the loader) when it has one. */
export async function dataOf<C extends CollectionKey>(collection: C): Promise<Array<CollectionEntry<C>['data']>> {
  const at = (data: unknown) => (data as { position?: number }).position ?? 0;
  return (await getCollection(collection)).map((e: CollectionEntry<C>) => e.data).sort((a, b) => at(a) - at(b));
}

/** Blog posts, newest first. */
export async function postsNewestFirst() {
  return (await getCollection('blog')).sort((a, b) => b.data.publishDate.getTime() - a.data.publishDate.getTime());
}

/** The site's author (content/site/author.json holds exactly one). */
export async function siteAuthor() {
  const [author] = await dataOf('author');
  if (!author) throw new Error('content/site/author.json is empty');
  return author;
}

/** Tool pages by slug, for titles of related tools. */
export async function toolsBySlug() {
  return new Map((await getCollection('tools')).map((t) => [t.id, t.data]));
}

/** ISP pages by lowercased name, so a city's provider list can link the ones we cover. */
export async function ispSlugsByName() {
  return new Map((await getCollection('isps')).map((i) => [i.data.name.toLowerCase(), i.id]));
}

/** Texts of the islands (content/site/lookup-text.json). */
export async function islandTexts() {
  const text = await getEntry('lookupText', 'lookup');
  if (!text) throw new Error('content/site/lookup-text.json lacks its entry');
  return text.data;
}

/**
 * Texts of the islands and one page's headings. The islands bundle their own texts and the
 * VPN offers (src/islands/island-text.ts); a page reads these for its own words around them.
 */
export async function lookupContent(page: 'home' | 'ip-2' | 'ip-4' | 'lookup') {
  const [t, pageCopy] = await Promise.all([islandTexts(), getEntry('lookupPages', page)]);
  if (!pageCopy) throw new Error(`content/site/lookup-pages.json lacks the entry for ${page}`);
  return { text: t, page: pageCopy.data };
}

/** The copy of a network's page or of the hub /networks (content/site/network-pages.json); read once, as ispsByAsn. */
export async function networkCopy<K extends 'network' | 'networks'>(page: K) {
  const entry = (await networkPages()).get(page);
  if (!entry) throw new Error(`content/site/network-pages.json lacks the entry for ${page}`);
  return entry as Extract<typeof entry, { id: K }>;
}
const networkPages = once(async () => new Map((await getCollection('networkPages')).map((e) => [e.data.id, e.data])));

/**
 * ISP pages by AS number, so a network's page can link the provider page that lists it.
 * Worked out once: the network pages render per request, and the content does not change
 * while the server runs.
 */
export const ispsByAsn = once(async () =>
  new Map((await getCollection('isps')).flatMap((i) => i.data.asns.map((asn) => [asn, { slug: i.id, name: i.data.name }] as const))));

/** City pages by country code and lowercased name, so a network's top cities can link ours (worked out once, as ispsByAsn). */
export const citySlugsByPlace = once(async () =>
  new Map((await getCollection('cities')).map((c) => [`${c.data.countryCode} ${c.data.name.toLowerCase()}`, c.id])));

/** A function that runs `make` on its first call and answers its result from then on. */
function once<T>(make: () => Promise<T>): () => Promise<T> {
  let made: Promise<T> | undefined;
  return () => (made ??= make());
}
