/**
 * Hooks the islands share: the lookup as this island should render it. With the
 * server's record as `initial`, the first render (server and hydration alike) shows
 * it without a request; without one, the island asks the store to load.
 */
import { useEffect, useMemo, useState, type RefObject } from 'react';
import { useStore } from '@nanostores/react';
import type { ReadableAtom } from 'nanostores';
import type { CollectionEntry } from 'astro:content';
import { applyCorrection, type PlaceCorrection } from '../lib/verification.ts';
import { $correction, restoreCorrection } from '../stores/correction.ts';
import { $lookup, ensureLookup, seedLookup, type LookupState } from '../stores/lookup.ts';
import { initialRecord, type InitialRecord } from './page-record.ts';

/** All texts of the lookup islands (content/site/lookup-text.json). */
export type LookupText = CollectionEntry<'lookupText'>['data'];

/**
 * A store's value that hydrates as the server rendered it (the store's initial value)
 * and only then switches to the browser's value: another island may already have
 * changed the store when this one hydrates, and hydration must match the HTML.
 */
export function useHydratedStore<T>(store: ReadableAtom<T>): T {
  return useStore(store, { ssr: 'initial' });
}

/** The lookup as shown: the record with the visitor's correction applied, and that correction (null when none applies). */
export interface ShownLookup extends LookupState {
  correction: PlaceCorrection | null;
  /** The record as the IP address alone gives it (the same as `data` when nothing was corrected). */
  fromIp: LookupState['data'];
}

/**
 * Applies the visitor's correction (stored for this address) to a lookup state. The
 * correction is read after hydration, so the first render matches the server's HTML.
 */
export function useShownLookup(state: LookupState): ShownLookup {
  const stored = useHydratedStore($correction);
  useEffect(restoreCorrection, []);
  return useMemo(() => {
    const data = state.data && applyCorrection(state.data, stored);
    const correction = data && data !== state.data ? stored : null;
    return { ...state, data, correction, fromIp: state.data };
  }, [state, stored]);
}

/** The lookup state, seeded from the server's record when the page has one, as shown (corrected). */
export function useLookup(given?: InitialRecord): ShownLookup {
  const initial = useMemo(() => initialRecord(given), [given]);
  const state = useHydratedStore($lookup);
  useEffect(() => {
    if (initial) seedLookup(initial);
    else ensureLookup();
  }, [initial]);
  // The store is idle on the server and until the effect runs: render the page's record meanwhile.
  return useShownLookup(state.status === 'idle' && initial ? { status: 'loaded', data: initial, error: null } : state);
}

/**
 * Whether `ref`'s element has been in view yet (a hidden tab panel is not): true from the
 * first time it is, for good. `deps` re-run the watch when the element may have changed.
 */
export function useFirstVisible(ref: RefObject<Element | null>, ...deps: unknown[]): boolean {
  const [seen, setSeen] = useState(false);
  useEffect(() => {
    const el = ref.current;
    if (!el || seen) return;
    const observer = new IntersectionObserver((entries) => {
      if (entries.some((e) => e.isIntersecting)) { setSeen(true); observer.disconnect(); }
    });
    observer.observe(el);
    return () => observer.disconnect();
  }, [seen, ...deps]);
  return seen;
}
