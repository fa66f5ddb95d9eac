/** Loads the copy the lookup pages share (content/site/lookup-*.json, offers). Pages only. */
import { getCollection, getEntry } from 'astro:content';

/** Texts of the islands, one page's headings, the VPN offers, and the detail cards' texts (with the VPN badge words). */
export async function lookupContent(page: 'home' | 'ip-2' | 'ip-4') {
  const [text, pageCopy, offers] = await Promise.all([
    getEntry('lookupText', 'lookup'),
    getEntry('lookupPages', page),
    getCollection('offers'),
  ]);
  if (!text || !pageCopy) throw new Error(`content/site/lookup-*.json lacks the entry for ${page}`);
  const t = text.data;
  const cardText = { ...t.cards, vpnDetected: t.badges.vpnDetected, noVpn: t.badges.noVpn };
  return { text: t, page: pageCopy.data, offers: offers.map((o) => o.data), cardText };
}
