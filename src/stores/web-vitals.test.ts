/** The panel's store, driven by a stand-in for the web-vitals library and fake timers. */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { MetricType } from 'web-vitals';

type Report = (metric: MetricType) => void;
const reporters = vi.hoisted(() => new Map<string, (metric: unknown) => void>());
/** Every registration, in order, with the options it passed. */
const registered = vi.hoisted(() => [] as Array<[string, unknown]>);
vi.mock('web-vitals', () => {
  const register = (name: string) => (report: (metric: unknown) => void, options: unknown) => {
    reporters.set(name, report);
    registered.push([name, options]);
  };
  return { onLCP: register('LCP'), onFCP: register('FCP'), onCLS: register('CLS'), onINP: register('INP'), onTTFB: register('TTFB') };
});

async function freshStore() {
  vi.resetModules();
  reporters.clear();
  registered.length = 0;
  const store = await import('./web-vitals.ts');
  store.startVitals();
  const report = (name: string, value: number, rating = 'good') =>
    (reporters.get(name) as Report)({ name, value, rating } as MetricType);
  return { ...store, report };
}

beforeEach(() => { vi.useFakeTimers(); });
afterEach(() => { vi.useRealTimers(); });

describe('startVitals', () => {
  it('registers each observer once, for every change, however often the island starts it', async () => {
    const { startVitals } = await freshStore();
    startVitals();
    const all = { reportAllChanges: true };
    expect(registered).toEqual([['LCP', all], ['FCP', all], ['CLS', all], ['INP', all], ['TTFB', all]]);
  });
});

describe('$vitalsPhase', () => {
  it('measures until three metrics have reported, timer or not', async () => {
    const { $vitalsPhase, report } = await freshStore();
    expect(reporters.size).toBe(5);
    report('TTFB', 40);
    report('FCP', 300);
    expect($vitalsPhase.get()).toBe('measuring');
    report('LCP', 320);
    expect($vitalsPhase.get()).toBe('live');
  });

  it('goes live after 3 s with one reading', async () => {
    const { $vitalsPhase, report } = await freshStore();
    report('TTFB', 40);
    vi.advanceTimersByTime(2999);
    expect($vitalsPhase.get()).toBe('measuring');
    vi.advanceTimersByTime(1);
    expect($vitalsPhase.get()).toBe('live');
  });

  it('keeps measuring past 3 s while nothing has reported, then goes live on the first reading', async () => {
    const { $vitalsPhase, report } = await freshStore();
    vi.advanceTimersByTime(10_000);
    expect($vitalsPhase.get()).toBe('measuring');
    report('CLS', 0.02);
    expect($vitalsPhase.get()).toBe('live');
  });

  it('keeps the latest value of a metric that reports again', async () => {
    const { $vitalReadings, report } = await freshStore();
    report('LCP', 900, 'good');
    report('LCP', 2700, 'needs-improvement');
    expect($vitalReadings.get()).toEqual({ LCP: { name: 'LCP', value: 2700, rating: 'needs-improvement' } });
  });
});
