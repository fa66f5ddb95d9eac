/**
 * The lookup islands' texts and the VPN offers, bundled with the islands' code (one shared
 * chunk, hashed and cached by the browser) rather than written into every page as the
 * islands' props: on `/` those props were a large part of the page, plain and gzipped
 * (bench/api.mjs measures the page; docs/benchmarks.md, "The script `/` loads"). These are the very files the content collections read and validate at build
 * (src/content.config.ts: lookupText, offers), which have no defaults or transforms to miss;
 * tests/island-text.test.ts checks that both read the same. A page passes a text only where
 * it differs (the per-address page's label of the IP box).
 */
import texts from '../../content/site/lookup-text.json' with { type: 'json' };
import offers from '../../content/site/offers.json' with { type: 'json' };
import keptFields from '../../content/site/kept-fields.json' with { type: 'json' };
import accuracy from '../../content/site/accuracy.json' with { type: 'json' };
import type { CollectionEntry } from 'astro:content';
import type { VerdictKey } from '../lib/badges.ts';
import { keptList, type KeptField } from '../lib/content/kept-fields.ts';
import type { MeasuredCell } from '../lib/measured-share.ts';
import type { LookupText } from './use-lookup.ts';

export const ISLAND_TEXT = texts[0] as LookupText;

/** A VPN offer as its file writes it (a source's date is the file's ISO date, not a Date). */
export type Offer = Omit<CollectionEntry<'offers'>['data'], 'source'> & { source?: { title: string; url: string; date: string | Date } };
export const OFFERS: readonly Offer[] = offers as Offer[];

/** The detail cards' texts: the cards', the VPN verdict's words from the badges, and the privacy flags'. */
export type CardText = LookupText['cards'] & Pick<LookupText['badges'], VerdictKey> & { privacy: LookupText['privacy'] };
const { vpnDetected, noVpn, torExit, privateRelay } = ISLAND_TEXT.badges;
export const CARD_TEXT: CardText = { ...ISLAND_TEXT.cards, vpnDetected, noVpn, torExit, privateRelay, privacy: ISLAND_TEXT.privacy };

/** What a stored lookup holds, in words (the analytics tab's intro fills its {kept} with it). */
export const KEPT_LOOKUP = keptList(keptFields as KeptField[], 'lookup');

/** The accuracy model's rows as measured on ground truth (content/site/accuracy.json): the badges' and the map note's one percentage. */
export const MEASURED_CELLS: readonly MeasuredCell[] = accuracy[0]?.cells ?? [];
