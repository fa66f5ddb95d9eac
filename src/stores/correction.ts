/**
 * `$correction`: the city the visitor chose for their IP address, kept in localStorage
 * so a reload keeps it, and applied to the record every island shows (useLookup).
 * A verified choice is also reported to POST /api/corrections, which learns only how
 * far off the IP-based place was (the server decides; it records nothing under GPC/DNT).
 */
import { atom } from 'nanostores';
import type { PlaceCorrection } from '../lib/verification.ts';
import { isPlaceCorrection } from '../lib/answer-guards.ts';

const STORAGE_KEY = 'whatismyip:correction';
export const CORRECTIONS_URL = '/api/corrections';

/** null on the server and until restoreCorrection() runs after hydration. */
export const $correction = atom<PlaceCorrection | null>(null);

let restored = false;

/** Reads the stored correction once (storage may be off or hold anything: then there is none). */
export function restoreCorrection(): void {
  if (restored) return;
  restored = true;
  try {
    const stored: unknown = JSON.parse(localStorage.getItem(STORAGE_KEY) ?? 'null');
    if (isPlaceCorrection(stored)) $correction.set(stored);
  } catch { /* no storage, or not JSON: no correction */ }
}

/** Shows `correction` from now on and keeps it for reloads; a verified one is reported. */
export function saveCorrection(correction: PlaceCorrection): void {
  restored = true;
  $correction.set(correction);
  try {
    localStorage.setItem(STORAGE_KEY, JSON.stringify(correction));
  } catch { /* storage off: the correction lasts until the page closes */ }
  if (correction.verified) {
    // Fire and forget: the visitor's page does not depend on what the server learns.
    void fetch(CORRECTIONS_URL, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ latitude: correction.latitude, longitude: correction.longitude }),
    }).catch(() => undefined);
  }
}

/** Back to the IP-based place. */
export function undoCorrection(): void {
  $correction.set(null);
  try {
    localStorage.removeItem(STORAGE_KEY);
  } catch { /* nothing stored */ }
}
