/**
 * Loads the city search index: from the file `npm run build` wrote (milliseconds), or,
 * when that is missing or was built from other data, built now in a worker thread (about
 * a second of CPU), so the server listens and answers every other route meanwhile; the
 * city search waits for it. bench/cities.mjs measures both. A missing or broken data
 * package never crashes the server: the index is then an Error the city search reports,
 * and the rest works. Missing alternate names only cost the English/local pairs.
 */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { Worker } from 'node:worker_threads';
import { CityIndex, buildIndexData, type CityIndexData } from './city-index.ts';
import { defaultCityFiles, readAlternateNames, readCityTable, type CityDataFiles } from './city-data.ts';
import { CITY_INDEX_FILE, dataVersion, decodeIndex } from './index-file.ts';
import { errorMessage as message } from '../../lib/error-message.ts';

/** Reads the files and builds the index in this thread. Throws when the places cannot be read. */
export function buildCityIndexData(files: CityDataFiles): { data: CityIndexData; problems: string[] } {
  const problems: string[] = [];
  const table = readCityTable(files);
  let alternates = new Map<number, string[]>();
  try {
    alternates = readAlternateNames(files.alternates);
  } catch (error) {
    problems.push(`alternate names unavailable (${message(error)}); only each place's main name is searched`);
  }
  return { data: buildIndexData(table, alternates), problems };
}

/** The buffers of the index's typed arrays, which postMessage can move instead of copy. */
export function transferList(data: CityIndexData): ArrayBuffer[] {
  const t = data.table;
  return [t.nameStart, t.country, t.region, t.lat, t.lon, t.population, t.geonameId, data.keyStart, data.keyCity, data.keyRank, data.keyFlags]
    .map((a) => a.buffer as ArrayBuffer);
}

/** The index as the city search sees it. */
export interface CityIndexHandle {
  /** The index once built, an Error when it cannot be, undefined while it builds. */
  current(): CityIndex | Error | undefined;
  /** Settles when the build ends (never rejects). */
  ready: Promise<CityIndex | Error>;
  /** Milliseconds from the start of loading to the index being ready (undefined until then). */
  readyMs(): number | undefined;
  /** Why the built index file was not used and the index is built from the place data instead. */
  rebuiltBecause(): string | undefined;
}

export interface LoadOptions {
  files?: CityDataFiles;
  /** Build directory holding the built index (default `$DIST_DIR` or `./dist`); null: always build. */
  distDir?: string | null;
  /** The built index file itself (the CITY_INDEX setting); default `data/city-index.bin` in `distDir`. */
  file?: string;
  /** Build in this thread instead of a worker (benchmarks compare the two). */
  inThread?: boolean;
  /** Where problems go; the server logs them once. */
  warn?: (message: string) => void;
}

function buildInWorker(files: CityDataFiles): Promise<{ data: CityIndexData; problems: string[] }> {
  return new Promise((resolve, reject) => {
    const worker = new Worker(new URL('./build-worker.ts', import.meta.url), { workerData: files });
    // A process that is done (a test, a CLI) does not wait for the index.
    worker.unref();
    worker.once('message', (result: { data: CityIndexData; problems: string[] }) => {
      resolve(result);
      // Its heap (the build's temporaries) goes back to the system with it.
      void worker.terminate();
    });
    worker.once('error', reject);
    worker.once('exit', (code) => reject(new Error(`the index worker exited with code ${code}`)));
  });
}

/** Starts building the index and returns its handle at once. */
export function loadCityIndex(options: LoadOptions = {}): CityIndexHandle {
  const warn = options.warn ?? ((m: string) => console.warn(`cities: ${m}`));
  const started = performance.now();
  let state: CityIndex | Error | undefined;
  let ms: number | undefined;
  let rebuiltBecause: string | undefined;
  const ready = (async (): Promise<CityIndex | Error> => {
    try {
      const files = options.files ?? defaultCityFiles();
      const distDir = options.distDir === undefined ? path.resolve(process.env.DIST_DIR || 'dist') : options.distDir;
      const indexFile = options.file ?? (distDir === null ? undefined : path.join(distDir, CITY_INDEX_FILE));
      if (indexFile !== undefined) {
        const file = await readFile(indexFile).catch(() => undefined);
        const built = file && decodeIndex(file, dataVersion(files));
        if (built) return new CityIndex(built);
        rebuiltBecause = `${indexFile} is ${file ? 'damaged or was built from other data' : 'missing'}`;
        warn(`${rebuiltBecause}: building the index from the place data now (npm run build writes the file)`);
      }
      const { data, problems } = options.inThread ? buildCityIndexData(files) : await buildInWorker(files);
      for (const problem of problems) warn(problem);
      return new CityIndex(data);
    } catch (error) {
      warn(`city search unavailable (${message(error)})`);
      return new Error(message(error));
    }
  })().then((result) => {
    state = result;
    ms = performance.now() - started;
    return result;
  });
  return { current: () => state, ready, readyMs: () => ms, rebuiltBecause: () => rebuiltBecause };
}
