import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, afterEach, describe, expect, it, vi } from 'vitest';
import { removeCityFiles, writeCityFiles, type FixturePlace } from '../../../tests/support/city-fixture.ts';
import type { CityDataFiles } from './city-data.ts';
import { CityIndex } from './city-index.ts';
import { CITY_INDEX_FILE, dataVersion, encodeIndex } from './index-file.ts';
import { buildCityIndexData, loadCityIndex, type CityIndexHandle } from './load.ts';

afterAll(removeCityFiles);
afterEach(() => {
  vi.unstubAllEnvs();
  vi.restoreAllMocks();
});

const PLACES: FixturePlace[] = [
  { id: 2_886_242, name: 'Köln', cc: 'DE', admin: '07', pop: 1_000_000, lat: 5_093_333, lon: 695_000 },
  { id: 2_820_256, name: 'Ulm', cc: 'DE', pop: 126_000, lat: 4_839_841, lon: 999_155 },
];
const ADMIN1 = [{ code: 'DE.07', name: 'North Rhine-Westphalia' }];
const ALTERNATES = { 2886242: ['Cologne'] };

const placeData = () => writeCityFiles({ pbf: PLACES, admin1: ADMIN1, alternates: ALTERNATES });

/** An index file for `files`' data version that holds other places than `files` (so an answer shows which was used). */
function writeIndexFile(files: CityDataFiles, where: string): void {
  const other = writeCityFiles({ pbf: [{ id: 1, name: 'Filetown', cc: 'FR', pop: 5000 }], admin1: [] });
  mkdirSync(path.dirname(where), { recursive: true });
  writeFileSync(where, encodeIndex(buildCityIndexData(other).data, dataVersion(files)));
}

async function found(handle: CityIndexHandle, query: string): Promise<string[]> {
  const index = await handle.ready;
  if (index instanceof Error) throw index;
  return index.search(query, 5).map((m) => m.name);
}

describe('loadCityIndex', () => {
  it('loads the built index file when it was built from the same data, saying nothing', async () => {
    const files = placeData();
    const file = path.join(files.dir, 'dist', CITY_INDEX_FILE);
    writeIndexFile(files, file);
    const warnings: string[] = [];
    const handle = loadCityIndex({ files, file, inThread: true, warn: (m) => warnings.push(m) });
    expect(await found(handle, 'filetown')).toEqual(['Filetown']);
    expect(await found(handle, 'koln')).toEqual([]);
    expect(handle.rebuiltBecause()).toBeUndefined();
    expect(warnings).toEqual([]);
  });

  it('finds the file as data/city-index.bin in the build directory', async () => {
    const files = placeData();
    const distDir = path.join(files.dir, 'dist');
    writeIndexFile(files, path.join(distDir, 'data', 'city-index.bin'));
    expect(await found(loadCityIndex({ files, distDir, inThread: true, warn: () => {} }), 'filetown')).toEqual(['Filetown']);
  });

  it('takes the build directory from DIST_DIR', async () => {
    const files = placeData();
    const distDir = path.join(files.dir, 'elsewhere');
    writeIndexFile(files, path.join(distDir, CITY_INDEX_FILE));
    vi.stubEnv('DIST_DIR', distDir);
    expect(await found(loadCityIndex({ files, inThread: true, warn: () => {} }), 'filetown')).toEqual(['Filetown']);
  });

  // ./dist holds the real places' index (or none before a build): either way not these places'.
  it('looks in ./dist without DIST_DIR, and builds from the place data when that file is not of this data', async () => {
    const files = placeData();
    vi.stubEnv('DIST_DIR', '');
    const warnings: string[] = [];
    const handle = loadCityIndex({ files, inThread: true, warn: (m) => warnings.push(m) });
    expect(await found(handle, 'cologne')).toEqual(['Köln']);
    const why = `${path.resolve('dist', CITY_INDEX_FILE)} is (missing|damaged or was built from other data)`;
    expect(handle.rebuiltBecause()).toMatch(new RegExp(`^${why}$`));
    expect(warnings).toEqual([expect.stringMatching(new RegExp(`^${why}: building the index from the place data now \\(npm run build writes the file\\)$`))]);
  });

  it.each<[string, (file: string) => void, string]>([
    ['missing', () => {}, 'missing'],
    ['damaged', (file) => { mkdirSync(path.dirname(file), { recursive: true }); writeFileSync(file, 'CITYIX01 and then nothing of use'); }, 'damaged or was built from other data'],
  ])('builds from the place data when the file is %s, and says why once', async (_, make, why) => {
    const files = placeData();
    const file = path.join(files.dir, 'out', 'city-index.bin');
    make(file);
    const warnings: string[] = [];
    const handle = loadCityIndex({ files, file, inThread: true, warn: (m) => warnings.push(m) });
    expect(await found(handle, 'cologne')).toEqual(['Köln']);
    expect(await found(handle, 'ulm')).toEqual(['Ulm']);
    expect(handle.rebuiltBecause()).toBe(`${file} is ${why}`);
    expect(warnings).toEqual([`${file} is ${why}: building the index from the place data now (npm run build writes the file)`]);
  });

  it('builds without looking for a file when there is no build directory, and says nothing', async () => {
    const files = placeData();
    const warnings: string[] = [];
    const handle = loadCityIndex({ files, distDir: null, inThread: true, warn: (m) => warnings.push(m) });
    expect(await found(handle, 'cologne')).toEqual(['Köln']);
    expect(handle.rebuiltBecause()).toBeUndefined();
    expect(warnings).toEqual([]);
  });

  it.each<[string, unknown, RegExp]>([
    ['missing', undefined, /^alternate names unavailable \(ENOENT: .*\); only each place's main name is searched$/],
    ['not an object', 'null', /^alternate names unavailable \(alternate-names\.json is not an object\); only each place's main name is searched$/],
  ])('searches main names only when the alternate names are %s, and says so', async (_, alternates, warning) => {
    const files = writeCityFiles({ pbf: PLACES, admin1: ADMIN1, alternates });
    const warnings: string[] = [];
    const handle = loadCityIndex({ files, distDir: null, inThread: true, warn: (m) => warnings.push(m) });
    expect(await found(handle, 'koln')).toEqual(['Köln']);
    expect(await found(handle, 'cologne')).toEqual([]);
    expect(warnings).toEqual([expect.stringMatching(warning)]);
  });

  it('is an Error, said once, when the places cannot be read', async () => {
    const files = writeCityFiles({ pbf: Buffer.alloc(0), admin1: ADMIN1 });
    const warnings: string[] = [];
    const handle = loadCityIndex({ files, distDir: null, inThread: true, warn: (m) => warnings.push(m) });
    const result = await handle.ready;
    expect(result).toBeInstanceOf(Error);
    expect((result as Error).message).toBe('cities.pbf holds no places');
    expect(handle.current()).toBe(result);
    expect(warnings).toEqual(['city search unavailable (cities.pbf holds no places)']);
  });

  it('logs to the console under "cities:" without a warn function', async () => {
    const logged = vi.spyOn(console, 'warn').mockImplementation(() => {});
    const files = writeCityFiles({ pbf: Buffer.alloc(0), admin1: ADMIN1 });
    await loadCityIndex({ files, distDir: null, inThread: true }).ready;
    expect(logged.mock.calls).toEqual([['cities: city search unavailable (cities.pbf holds no places)']]);
  });

  it('has no index and no time until the build ends, then both', async () => {
    const files = placeData();
    const before = performance.now();
    const handle = loadCityIndex({ files, distDir: null, inThread: true, warn: () => {} });
    expect(handle.current()).toBeUndefined();
    expect(handle.readyMs()).toBeUndefined();
    const index = await handle.ready;
    const elapsed = performance.now() - before;
    expect(index).toBeInstanceOf(CityIndex);
    expect(handle.current()).toBe(index);
    expect(handle.readyMs()).toBeGreaterThanOrEqual(0);
    expect(handle.readyMs()).toBeLessThanOrEqual(elapsed);
  });

  it('builds in this thread when asked: done before the event loop turns', async () => {
    const handle = loadCityIndex({ files: placeData(), distDir: null, inThread: true, warn: () => {} });
    await new Promise((resolve) => setImmediate(resolve));
    expect(handle.current()).toBeInstanceOf(CityIndex);
  });

  it('builds in a child process by default, this thread running meanwhile, with the same index', async () => {
    const files = placeData();
    const order: string[] = [];
    setImmediate(() => order.push('this thread ran'));
    const inChild = await loadCityIndex({ files, distDir: null, warn: () => {} }).ready;
    order.push('index ready');
    expect(order).toEqual(['this thread ran', 'index ready']);
    const inThread = await loadCityIndex({ files, distDir: null, inThread: true, warn: () => {} }).ready;
    if (inChild instanceof Error || inThread instanceof Error) throw new Error('no index');
    expect(inChild.search('cologne', 5)).toEqual(inThread.search('cologne', 5));
    expect(inChild.size).toEqual(inThread.size);
  });

  it('passes on the problems the child met', async () => {
    const files = writeCityFiles({ pbf: PLACES, admin1: ADMIN1 });
    const warnings: string[] = [];
    const index = await loadCityIndex({ files, distDir: null, warn: (m) => warnings.push(m) }).ready;
    expect(index).toBeInstanceOf(CityIndex);
    expect(warnings).toEqual([expect.stringMatching(/^alternate names unavailable \(ENOENT: /)]);
  });

  it('is the child\'s own error when the build in the child fails', async () => {
    const files = writeCityFiles({ pbf: Buffer.alloc(0), admin1: ADMIN1 });
    const warnings: string[] = [];
    const result = await loadCityIndex({ files, distDir: null, warn: (m) => warnings.push(m) }).ready;
    expect((result as Error).message).toBe('cities.pbf holds no places');
    expect(warnings).toEqual(['city search unavailable (cities.pbf holds no places)']);
  });
});

describe('buildCityIndexData', () => {
  it('builds the index of every place and its other names, with no problems', () => {
    const { data, problems } = buildCityIndexData(placeData());
    expect(problems).toEqual([]);
    expect(new CityIndex(data).search('cologne', 5).map((m) => [m.name, m.region])).toEqual([['Köln', 'North Rhine-Westphalia']]);
  });
});

describe('the city index handle', () => {
  it('describes its state for /healthz: loading, then ok, with why the built file was not used', async () => {
    const files = placeData();
    const file = path.join(files.dir, 'none', 'city-index.bin');
    const seen: string[] = [];
    // Said as the build starts: the state then is the one /healthz shows while it builds.
    const handle: CityIndexHandle = loadCityIndex({ files, file, inThread: true, warn: () => seen.push(handle.describe()) });
    expect(handle.describe()).toBe('loading');
    await handle.ready;
    expect(seen).toEqual([`loading (rebuilt: ${file} is missing)`]);
    expect(handle.describe()).toBe(`ok (rebuilt: ${file} is missing)`);
    const fromFile = loadCityIndex({ files, file: (writeIndexFile(files, file), file), inThread: true, warn: () => {} });
    expect(fromFile.describe()).toBe('loading');
    await fromFile.ready;
    expect(fromFile.describe()).toBe('ok');
  });

  it('describes an index that cannot be built as missing, with why', async () => {
    const files = writeCityFiles({ pbf: Buffer.alloc(0), admin1: ADMIN1 });
    const handle = loadCityIndex({ files, distDir: null, inThread: true, warn: () => {} });
    await handle.ready;
    expect(handle.describe()).toBe('missing (cities.pbf holds no places)');
  });

  it('rebuilds nothing while its data is unchanged, and builds again once the alternate names change', { timeout: 30_000 }, async () => {
    const files = placeData();
    const handle = loadCityIndex({ files, distDir: null, inThread: true, warn: () => {} });
    const first = await handle.ready;
    expect(await handle.rebuild()).toBe(first);
    expect(handle.current()).toBe(first);
    writeFileSync(files.alternates, JSON.stringify({ 2886242: ['Colonia'] }));
    const logged = vi.spyOn(console, 'log').mockImplementation(() => {});
    const rebuilt = await handle.rebuild();
    expect(rebuilt).not.toBe(first);
    expect(handle.current()).toBe(rebuilt);
    expect(await handle.ready).toBe(rebuilt);
    expect(await found(handle, 'colonia')).toEqual(['Köln']);
    expect(await found(handle, 'cologne')).toEqual([]);
    expect(logged.mock.calls).toEqual([[expect.stringMatching(/^cities: rebuilt the city index from the newer data and swapped it in \(\d+ ms\)$/)]]);
  });

  it('keeps the index it has when a rebuild fails, and says so', { timeout: 30_000 }, async () => {
    const files = placeData();
    const handle = loadCityIndex({ files, distDir: null, inThread: true, warn: () => {} });
    const first = await handle.ready;
    writeFileSync(files.alternates, JSON.stringify({ 2886242: ['Colonia'] }));
    writeFileSync(files.pbf, Buffer.alloc(0));
    const logged = vi.spyOn(console, 'log').mockImplementation(() => {});
    expect(await handle.rebuild()).toBe(first);
    expect(handle.current()).toBe(first);
    expect(logged.mock.calls).toEqual([['cities: the city index could not be rebuilt from the newer data (cities.pbf holds no places); the city search answers from the data it had']]);
  });
});
