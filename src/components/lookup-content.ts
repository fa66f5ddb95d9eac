/** Loads the copy the lookup pages share (content/site/lookup-*.json, offers). Pages only. */
import { getCollection, getEntry } from 'astro:content';

/** Texts of the islands, one page's headings, and the VPN offers. */
export async function lookupContent(page: 'home' | 'ip-2' | 'ip-4') {
  const [text, pageCopy, offers] = await Promise.all([
    getEntry('lookupText', 'lookup'),
    getEntry('lookupPages', page),
    getCollection('offers'),
  ]);
  if (!text || !pageCopy) throw new Error(`content/site/lookup-*.json lacks the entry for ${page}`);
  return { text: text.data, page: pageCopy.data, offers: offers.map((o) => o.data) };
}
