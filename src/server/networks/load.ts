/**
 * Loads the per-network index (built-index/loader.ts): from the file `npm run build` wrote
 * (tens of milliseconds), or one built earlier and kept under DATA_DIR, or, when neither
 * holds it for the data at hand (`npm run data:update` fetched newer packages, or
 * DBIP_CITY_DIR names other files), built from the data now in a child process
 * (build-child.ts, a few seconds of CPU), so the server listens and answers everything else
 * meanwhile; the network pages and `/api/asn` wait for it. A network index that cannot be
 * built (no ASN data) is an Error those routes report; the rest works. bench/asn.mjs
 * measures the load.
 *
 * When newer data is swapped into the engine, `rebuild` builds the index from it in a child
 * process, off the request path, and swaps it in whole: the index it had answers until then,
 * and stays when the rebuild fails. A built index is kept beside the data packages under
 * DATA_DIR, where the next start finds it.
 */
import { keptIndexFile } from '../data/layout.ts';
import { rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { AsnIndex } from '../data/asn-index.ts';
import { dbipCityFiles } from '../data/sources.ts';
import { loadBuiltIndex, type IndexHandle, type IndexPlan } from '../built-index/loader.ts';
import { runChildTask } from '../utils/child-task.ts';
import { buildNetworkData } from './build.ts';
import { decodeNetworkIndex, NETWORK_INDEX_FILE } from './index-file.ts';
import { NetworkIndex } from './network-index.ts';
import { openPlaceReaders } from './build-input.ts';

/**
 * The index as its routes see it. `rebuild(asn, spec)` builds it again from the data now on
 * disk, for the engine's `asn` (what the lookup answers from).
 */
export type NetworkIndexHandle = IndexHandle<NetworkIndex, [asn: AsnIndex | undefined, spec: NetworkRebuildSpec]>;

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

/** Where a built index is kept: beside the data packages under DATA_DIR. */
export function rebuiltNetworkFile(dataDir: string): string {
  return keptIndexFile(dataDir, 'network-index.bin');
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
  /** DATA_DIR: an index built after a data update is kept there, and read when the built file does not match. */
  dataDir?: string;
  /** Build in this thread instead of a child process (tests, benchmarks). */
  inThread?: boolean;
  warn?: (message: string) => void;
}

/** What an index is built from, in one line: a file built from anything else is rebuilt. */
export function networkDataVersion(asnVersion: string, placesVersion: string): string {
  return `asn ${asnVersion}; dbip-city ${placesVersion}`;
}

/**
 * What build-child.ts is given: the file to write and the version to build for, and the ASN
 * index either as a file of its bytes (AsnIndex.serialize, the engine's own) or opened as
 * the engine opens it for a spec; the place files as the engine opens them.
 */
export type NetworkBuildInput = { out: string; version: string } & (
  | { asnFile: string; places: { v4: string; v6: string } | undefined }
  | { spec: NetworkRebuildSpec });

const decode = (bytes: Buffer, version: string) => { const data = decodeNetworkIndex(bytes, version); return data && new NetworkIndex(data); };
const runChild = (input: NetworkBuildInput) => runChildTask(new URL('./build-child.ts', import.meta.url), [JSON.stringify(input)]);

let builds = 0;

/** The first load's plan: the built file, the one kept under DATA_DIR, else a build for the engine's `asn`. */
function firstPlan(options: NetworkLoadOptions): IndexPlan<NetworkIndex> | Error {
  const { asn, places } = options;
  if (!asn) return new Error('the ASN data is not loaded');
  const version = networkDataVersion(asn.version, places instanceof Error ? 'none' : places.version);
  const file = options.file ?? path.join(options.distDir ?? path.resolve(process.env.DIST_DIR || 'dist'), NETWORK_INDEX_FILE);
  const placeFiles = places instanceof Error ? undefined : places;
  return {
    version,
    files: options.dataDir ? [file, rebuiltNetworkFile(options.dataDir)] : [file],
    decode,
    keepAt: options.dataDir && rebuiltNetworkFile(options.dataDir),
    notes: places instanceof Error ? [`place data unavailable (${places.message}): networks are listed without places`] : [],
    buildFile: async (out) => {
      // The engine's ASN index handed over as its bytes, in a file of this process's own.
      const asnFile = path.join(tmpdir(), `network-build-asn.${process.pid}.${++builds}.bin`);
      try {
        await writeFile(asnFile, asn.serialize());
        return await runChild({ out, version, asnFile, places: placeFiles });
      } finally {
        await rm(asnFile, { force: true });
      }
    },
    buildHere: options.inThread
      ? async () => ({ index: new NetworkIndex(buildNetworkData(asn, await openPlaceReaders(placeFiles), version)), notes: [] })
      : undefined,
  };
}

/** A rebuild's plan: for the engine's `asn` and the place data now on disk, built in a child process from `spec`. */
function rebuildPlan(asn: AsnIndex | undefined, spec: NetworkRebuildSpec): IndexPlan<NetworkIndex> | undefined {
  if (!asn) return undefined;
  const version = networkDataVersion(asn.version, placeFiles(spec)?.version ?? 'none');
  return {
    version, files: [], decode, keepAt: spec.dataDir && rebuiltNetworkFile(spec.dataDir),
    buildFile: (out) => runChild({ out, version, spec }),
  };
}

/** Starts loading the index and returns its handle at once. */
export function loadNetworkIndex(options: NetworkLoadOptions): NetworkIndexHandle {
  return loadBuiltIndex<NetworkIndex, [AsnIndex | undefined, NetworkRebuildSpec]>({
    plan: () => firstPlan(options),
    replan: rebuildPlan,
    noun: 'network index',
    building: 'the network index from the data',
    unavailable: 'network pages',
    answersOld: 'the network pages answer from the data they had',
    summary: (index) => `${index.size} networks`,
    warn: options.warn ?? ((m: string) => console.warn(`networks: ${m}`)),
    log: (line) => console.log(`networks: ${line}`),
  });
}
