/**
 * The islands bundle their texts and the VPN offers (src/islands/island-text.ts) from the
 * files the content collections validate at build. What an island shows must be what the
 * collection holds: each file parses under its schema to the very values the islands read
 * (no default or transform the islands would miss). tests/e2e/home.test.ts checks that `/`
 * no longer carries them as props.
 */
import { describe, expect, it } from 'vitest';
import { ISLAND_TEXT, OFFERS } from '../src/islands/island-text.ts';
import { lookupTextSchema } from '../src/schemas/lookup-copy.ts';
import { offersSchema } from '../src/schemas/site-lists.ts';

describe("the islands' bundled texts", () => {
  it('are the lookup texts as their schema reads them', () => {
    expect(lookupTextSchema.parse(ISLAND_TEXT)).toEqual(ISLAND_TEXT);
  });

  it('hold every offer as its schema reads it, a source date being the same day', () => {
    expect(OFFERS.length).toBeGreaterThan(0);
    for (const offer of OFFERS) {
      const parsed = offersSchema.parse(offer);
      const { source, ...rest } = offer;
      expect({ ...parsed, source: undefined }).toEqual({ ...rest, source: undefined });
      expect(parsed.source && { ...parsed.source, date: parsed.source.date.toISOString() })
        .toEqual(source && { ...source, date: new Date(source.date).toISOString() });
    }
  });
});
