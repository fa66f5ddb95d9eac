/** `$correction` against a stand-in localStorage and fetch: what is kept, restored, reported and undone. */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { stubFetch } from '../../tests/support/fetch-stub.ts';

afterEach(() => { vi.unstubAllGlobals(); });

const CHOICE = { ip: '192.0.2.1', city: 'Berlin', region: 'Berlin', country: 'Germany', country_code: 'DE', latitude: 52.52, longitude: 13.4, verified: true, population: 3_600_000 };

/**
 * A localStorage holding `stored` under the store's key; `broken` makes every call throw
 * (storage off), `full` only writing (over its quota).
 */
async function fresh(stored: string | null = null, broken = false, full = false) {
  const items = new Map<string, string>();
  if (stored !== null) items.set('whatismyip:correction', stored);
  const fail = () => { throw new Error('storage is off'); };
  vi.stubGlobal('localStorage', {
    getItem: (k: string) => (broken ? fail() : items.get(k) ?? null),
    setItem: (k: string, v: string) => (broken || full ? fail() : void items.set(k, v)),
    removeItem: (k: string) => (broken ? fail() : void items.delete(k)),
  });
  const fetch = stubFetch();
  vi.resetModules();
  return { items, fetch, ...(await import('./correction.ts')) };
}

describe('restoreCorrection', () => {
  it.each([
    { name: 'a stored choice is shown again', stored: JSON.stringify(CHOICE), broken: false, expected: CHOICE },
    { name: 'nothing stored: no correction', stored: null, broken: false, expected: null },
    { name: 'not JSON: no correction', stored: '{nope', broken: false, expected: null },
    { name: 'not a correction: none', stored: JSON.stringify({ city: 1 }), broken: false, expected: null },
    { name: 'storage off: none, and no error', stored: null, broken: true, expected: null },
  ])('$name', async ({ stored, broken, expected }) => {
    const { $correction, restoreCorrection } = await fresh(stored, broken);
    restoreCorrection();
    expect($correction.get()).toEqual(expected);
  });

  it('reads storage once: a later call does not bring back what was undone', async () => {
    const { $correction, restoreCorrection, items } = await fresh(JSON.stringify(CHOICE));
    restoreCorrection();
    $correction.set(null);
    restoreCorrection();
    expect($correction.get()).toBeNull();
    expect(items.size).toBe(1);
  });

  it('does not read storage after a choice was made', async () => {
    const { $correction, restoreCorrection, saveCorrection } = await fresh(JSON.stringify({ ...CHOICE, city: 'Old' }));
    saveCorrection({ ...CHOICE, verified: false });
    restoreCorrection();
    expect($correction.get()?.city).toBe('Berlin');
  });

  it('does not bring back an older stored choice when the new one could not be stored (storage full)', async () => {
    const { $correction, restoreCorrection, saveCorrection } = await fresh(JSON.stringify({ ...CHOICE, city: 'Old' }), false, true);
    saveCorrection({ ...CHOICE, verified: false });
    restoreCorrection();
    expect($correction.get()?.city).toBe('Berlin');
  });
});

describe('saveCorrection and undoCorrection', () => {
  it('keeps a verified choice, reports only its coordinates, and undo removes it', async () => {
    const { $correction, saveCorrection, undoCorrection, items, fetch } = await fresh();
    saveCorrection(CHOICE);
    expect($correction.get()).toEqual(CHOICE);
    expect(JSON.parse(items.get('whatismyip:correction')!)).toEqual(CHOICE);
    expect(fetch.requests.map((r) => [r.url, r.init?.method, new Headers(r.init?.headers).get('content-type'), JSON.parse(String(r.init?.body))]))
      .toEqual([['/api/corrections', 'POST', 'application/json', { latitude: 52.52, longitude: 13.4 }]]);
    fetch.requests[0]!.fail();
    undoCorrection();
    expect($correction.get()).toBeNull();
    expect(items.size).toBe(0);
  });

  it('reports nothing for an unverified choice', async () => {
    const { saveCorrection, fetch } = await fresh();
    saveCorrection({ ...CHOICE, verified: false });
    expect(fetch.requests).toEqual([]);
  });

  it('still shows and reports the choice when storage is off, and undoes it', async () => {
    const { $correction, saveCorrection, undoCorrection, fetch } = await fresh(null, true);
    saveCorrection(CHOICE);
    expect($correction.get()).toEqual(CHOICE);
    expect(fetch.requests).toHaveLength(1);
    undoCorrection();
    expect($correction.get()).toBeNull();
  });
});
