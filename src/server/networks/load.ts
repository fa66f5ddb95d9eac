/**
 * Loads the per-network index: from the file `npm run build` wrote (tens of milliseconds),
 * or, when that is missing, damaged or was built from other data (`npm run data:update`
 * fetched newer packages, or DBIP_CITY_DIR names other files), built from the data now in
 * a worker thread (a few seconds of CPU), so the server listens and answers everything
 * else meanwhile; the network pages and `/api/asn` wait for it. A network index that
 * cannot be built (no ASN data) is an Error those routes report; the rest works.
 * bench/asn.mjs measures the load.
 */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { Worker } from 'node:worker_threads';
import type { AsnIndex } from '../lookup/asn-index.ts';
import { buildNetworkData } from './build.ts';
import { decodeNetworkIndex, NETWORK_INDEX_FILE } from './index-file.ts';
import { NetworkIndex, type NetworkIndexData } from './network-index.ts';
import { openPlaceReaders, type BuildInput } from './build-input.ts';

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
  /** Build in this thread instead of a worker (tests, benchmarks). */
  inThread?: boolean;
  warn?: (message: string) => void;
}

/** What an index is built from, in one line: a file built from anything else is rebuilt. */
export function networkDataVersion(asnVersion: string, placesVersion: string): string {
  return `asn ${asnVersion}; dbip-city ${placesVersion}`;
}

const message = (error: unknown) => (error instanceof Error ? error.message : String(error));

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
  return { current: () => state, ready, readyMs: () => ms, rebuiltBecause: () => rebuiltBecause };
}
