/**
 * `$gps`: the opt-in precise location. Permission is asked only when the visitor asks
 * for it; a fix is sent with POST /api/lookup, which makes the record `hybrid`.
 * Every failure ends in a state with a message, never a spinner that stays.
 */
import { atom } from 'nanostores';
import type { GpsLocation } from '../lib/record.ts';
import { $lookupContext, refreshLookup } from './lookup.ts';

export type GpsStatus = 'unknown' | 'unavailable' | 'ready' | 'asking' | 'granted' | 'denied' | 'timeout' | 'failed';

/** High accuracy, 5 s, a cached position up to 5 minutes old. */
export const GPS_OPTIONS: PositionOptions = { enableHighAccuracy: true, timeout: 5000, maximumAge: 300_000 };

/** 'unknown' on the server and before hydration; then 'unavailable' or 'ready'. */
export const $gps = atom<{ status: GpsStatus; fix: GpsLocation | null }>({ status: 'unknown', fix: null });

/** Reads whether this browser can give a position at all (no prompt). */
export function detectGps(): void {
  if ($gps.get().status !== 'unknown') return;
  $gps.set({ status: 'geolocation' in navigator ? 'ready' : 'unavailable', fix: null });
}

const FAILURES: Record<number, GpsStatus> = { 1: 'denied', 3: 'timeout' };

/** Asks the browser for a position, then reruns the lookup with it. */
export function requestGps(): void {
  if (!('geolocation' in navigator)) return $gps.set({ status: 'unavailable', fix: null });
  $gps.set({ status: 'asking', fix: null });
  navigator.geolocation.getCurrentPosition(
    (position) => {
      const fix = { lat: position.coords.latitude, lng: position.coords.longitude, accuracy: position.coords.accuracy };
      $gps.set({ status: 'granted', fix });
      $lookupContext.setKey('browserLocation', fix);
      void refreshLookup();
    },
    (error) => $gps.set({ status: FAILURES[error.code] ?? 'failed', fix: null }),
    GPS_OPTIONS,
  );
}
