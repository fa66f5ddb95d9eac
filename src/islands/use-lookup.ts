/**
 * Hooks the islands share: the lookup as this island should render it. With the
 * server's record as `initial`, the first render (server and hydration alike) shows
 * it without a request; without one, the island asks the store to load.
 */
import { useEffect } from 'react';
import { useStore } from '@nanostores/react';
import type { CollectionEntry } from 'astro:content';
import type { LookupResponse } from '../lib/record.ts';
import { $lookup, ensureLookup, seedLookup, type LookupState } from '../stores/lookup.ts';

/** All texts of the lookup islands (content/site/lookup-text.json). */
export type LookupText = CollectionEntry<'lookupText'>['data'];

/** The lookup state, seeded from the server's record when the page has one. */
export function useLookup(initial?: LookupResponse | null): LookupState {
  const state = useStore($lookup);
  useEffect(() => {
    if (initial) seedLookup(initial);
    else ensureLookup();
  }, [initial]);
  // The store is idle on the server and until the effect runs: render the page's record meanwhile.
  return state.status === 'idle' && initial ? { status: 'loaded', data: initial, error: null } : state;
}
