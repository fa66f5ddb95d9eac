/** `$gps` against a stand-in geolocation: what each answer of the device leaves on screen, and the lookup a fix starts. */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { stubFetch } from '../../tests/support/fetch-stub.ts';

afterEach(() => { vi.unstubAllGlobals(); });

type Answer = { coords: { latitude: number; longitude: number; accuracy: number } } | { code: number };

/** A browser whose device answers the next position request with `answer` (or has no geolocation). */
async function fresh(answer?: Answer) {
  const asked: PositionOptions[] = [];
  const geolocation = {
    getCurrentPosition: (ok: (p: unknown) => void, fail: (e: { code: number }) => void, options: PositionOptions) => {
      asked.push(options);
      if (answer && 'coords' in answer) ok(answer);
      else if (answer) fail(answer);
    },
  };
  vi.stubGlobal('navigator', answer === undefined ? { language: 'en', userAgent: 'test' } : { geolocation, language: 'en', userAgent: 'test' });
  vi.stubGlobal('location', new URL('http://localhost/'));
  const fetch = stubFetch();
  vi.resetModules();
  const gps = await import('./gps.ts');
  const lookup = await import('./lookup.ts');
  return { fetch, asked, ...gps, ...lookup };
}

describe('$gps', () => {
  it('is ready where the browser has geolocation, unavailable where not, and detects once', async () => {
    const withGps = await fresh({ code: 1 });
    withGps.detectGps();
    expect(withGps.$gps.get()).toEqual({ status: 'ready', fix: null });
    withGps.$gps.set({ status: 'denied', fix: null });
    withGps.detectGps();
    expect(withGps.$gps.get().status).toBe('denied');
    const without = await fresh();
    without.detectGps();
    expect(without.$gps.get()).toEqual({ status: 'unavailable', fix: null });
    without.requestGps();
    expect(without.$gps.get()).toEqual({ status: 'unavailable', fix: null });
  });

  it.each([
    { name: 'permission denied', code: 1, status: 'denied' },
    { name: 'position unavailable', code: 2, status: 'failed' },
    { name: 'timeout', code: 3, status: 'timeout' },
  ])('ends in $status when the device answers $name, with no lookup', async ({ code, status }) => {
    const { $gps, requestGps, fetch, asked, GPS_OPTIONS } = await fresh({ code });
    requestGps();
    expect($gps.get()).toEqual({ status, fix: null });
    expect(asked).toEqual([GPS_OPTIONS]);
    expect(fetch.requests).toEqual([]);
  });

  it('keeps the fix, puts it in the lookup context and reruns the lookup with it', async () => {
    const { $gps, requestGps, fetch, $lookupContext } = await fresh({ coords: { latitude: 48.85, longitude: 2.29, accuracy: 12 } });
    requestGps();
    const fix = { lat: 48.85, lng: 2.29, accuracy: 12 };
    expect($gps.get()).toEqual({ status: 'granted', fix });
    expect($lookupContext.get()).toEqual({ browserLocation: fix });
    const request = await fetch.request((url) => url.endsWith('/api/lookup'));
    expect(request.init?.method).toBe('POST');
    expect(JSON.parse(String(request.init?.body)).browserLocation).toEqual(fix);
  });

  it('shows it is asking until the device answers', async () => {
    vi.stubGlobal('navigator', { geolocation: { getCurrentPosition: () => undefined } });
    vi.resetModules();
    const { $gps, requestGps, GPS_OPTIONS } = await import('./gps.ts');
    requestGps();
    expect($gps.get()).toEqual({ status: 'asking', fix: null });
    expect(GPS_OPTIONS).toEqual({ enableHighAccuracy: true, timeout: 5000, maximumAge: 300_000 });
  });
});
