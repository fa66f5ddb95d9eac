/**
 * Rules of the Core Web Vitals panel (web-vitals.test.ts holds each rule): which metrics it shows,
 * how their values are written, and when it leaves 'Measuring...'.
 */

/** The five metrics the panel lists, in display order. */
export const VITAL_NAMES = ['LCP', 'FCP', 'CLS', 'INP', 'TTFB'] as const;
export type VitalName = (typeof VITAL_NAMES)[number];

/** The web-vitals library's verdict on a value. */
export type VitalRating = 'good' | 'needs-improvement' | 'poor';

/** One measured metric, as the panel shows it. */
export interface VitalReading {
  name: VitalName;
  value: number;
  rating: VitalRating;
}

/** Readings needed to leave the loading state before the timer runs out. */
export const VITALS_READY_COUNT = 3;
/** After this long the panel shows whatever has been measured (if anything has). */
export const VITALS_READY_AFTER_MS = 3000;

/** CLS is a unitless score written with 3 decimals; every other metric is a time in whole ms. */
export function formatVitalValue(name: VitalName, value: number): string {
  return name === 'CLS' ? value.toFixed(3) : String(Math.round(value));
}

/**
 * 'measuring' until at least VITALS_READY_COUNT readings exist, or the timer has run out
 * and at least one reading exists; 'live' from then on.
 */
export function vitalsPhase(readingCount: number, timerElapsed: boolean): 'measuring' | 'live' {
  if (readingCount >= VITALS_READY_COUNT) return 'live';
  return timerElapsed && readingCount > 0 ? 'live' : 'measuring';
}
