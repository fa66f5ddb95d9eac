/**
 * `$vitalReadings` and `$vitalsPhase`: this page's Core Web Vitals as the `web-vitals`
 * library reports them, live (every change, not only the final value), and whether the
 * panel still says 'Measuring...'. Measuring starts when the island calls startVitals()
 * in the browser (an effect), never during server rendering.
 */
import { atom, computed, map } from 'nanostores';
import { onCLS, onFCP, onINP, onLCP, onTTFB, type MetricType } from 'web-vitals';
import { VITALS_READY_AFTER_MS, vitalsPhase, type VitalName, type VitalReading } from '../lib/web-vitals.ts';

/** The latest reading of each metric that has reported so far. */
export const $vitalReadings = map<Partial<Record<VitalName, VitalReading>>>({});
const $timerElapsed = atom(false);

export const $vitalsPhase = computed([$vitalReadings, $timerElapsed],
  (readings, elapsed) => vitalsPhase(Object.keys(readings).length, elapsed));

function record({ name, value, rating }: MetricType): void {
  $vitalReadings.setKey(name, { name, value, rating });
}

let started = false;

/** Registers the five observers and the 3 s timer; later calls do nothing (observers cannot be removed). */
export function startVitals(): void {
  if (started) return;
  started = true;
  const options = { reportAllChanges: true };
  onLCP(record, options);
  onFCP(record, options);
  onCLS(record, options);
  onINP(record, options);
  onTTFB(record, options);
  setTimeout(() => $timerElapsed.set(true), VITALS_READY_AFTER_MS);
}
