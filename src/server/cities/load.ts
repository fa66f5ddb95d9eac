/**
 * Loads the city search index (built-index/loader.ts): from the file `npm run build` wrote
 * (milliseconds), or, when that is missing or was built from other data, built now in a
 * child process (build-child.ts, about a second of CPU), so the server listens and answers
 * every other route meanwhile; the city search waits for it. bench/cities.mjs measures
 * both. A missing or broken data package never crashes the server: the index is then an
 * Error the city search reports, and the rest works. Missing alternate names only cost the
 * English/local pairs.
 */
import path from 'node:path';
import { loadBuiltIndex, type IndexHandle, type IndexPlan } from '../built-index/loader.ts';
import { runChildTask } from '../utils/child-task.ts';
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

/** The index as the city search sees it; `rebuild()` builds it again when its data files changed. */
export type CityIndexHandle = IndexHandle<CityIndex>;

/** What build-child.ts is given: the data files, the version to stamp, the file to write. */
export interface CityBuildInput { files: CityDataFiles; version: string; out: string }

export interface LoadOptions {
  files?: CityDataFiles;
  /** Build directory holding the built index (default `$DIST_DIR` or `./dist`); null: always build. */
  distDir?: string | null;
  /** The built index file itself (the CITY_INDEX setting); default `data/city-index.bin` in `distDir`. */
  file?: string;
  /** Build in this thread instead of a child process (benchmarks compare the two). */
  inThread?: boolean;
  /** Where problems go; the server logs them once. */
  warn?: (message: string) => void;
}

/** The plan for the data files as they are now: the built file, else a build (here or in a child). */
function plan(options: LoadOptions): IndexPlan<CityIndex> {
  const files = options.files ?? defaultCityFiles();
  const distDir = options.distDir === undefined ? path.resolve(process.env.DIST_DIR || 'dist') : options.distDir;
  const indexFile = options.file ?? (distDir === null ? undefined : path.join(distDir, CITY_INDEX_FILE));
  const version = dataVersion(files);
  return {
    version,
    files: indexFile === undefined ? [] : [indexFile],
    decode: (bytes, v) => { const data = decodeIndex(bytes, v); return data && new CityIndex(data); },
    buildFile: (out) => runChildTask(new URL('./build-child.ts', import.meta.url), [JSON.stringify({ files, version, out } satisfies CityBuildInput)]),
    buildHere: options.inThread
      ? async () => { const { data, problems } = buildCityIndexData(files); return { index: new CityIndex(data), notes: problems }; }
      : undefined,
  };
}

/** Starts loading the index and returns its handle at once. */
export function loadCityIndex(options: LoadOptions = {}): CityIndexHandle {
  const warn = options.warn ?? ((m: string) => console.warn(`cities: ${m}`));
  return loadBuiltIndex<CityIndex, []>({
    plan: () => plan(options),
    replan: () => plan(options),
    noun: 'city index',
    building: 'the index from the place data',
    unavailable: 'city search',
    answersOld: 'the city search answers from the data it had',
    warn,
    log: (line) => console.log(`cities: ${line}`),
  });
}
