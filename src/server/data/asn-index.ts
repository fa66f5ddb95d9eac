/**
 * IP → ASN and organisation, from the `@ip-location-db/asn` CSV (RouteViews, the five RIRs
 * and DB-IP; rows `start,end,asn,org`, inclusive ranges, org quoted with "" escapes).
 * The CSV is compiled into sorted typed arrays searched by bisection, with each
 * organisation name stored once. Rows are sorted by start; where two overlap (the data
 * has a few), the later one answers for the shared addresses. `npm run build` writes the
 * compiled form to `dist/data/asn-index.bin` (scripts/build-asn-index.ts); the engine
 * loads that file in a few milliseconds and compiles the CSV itself (about a second) when
 * the file is missing or was built from another version of the package. The file is a
 * built-index container (built-index/container.ts) whose parts ASN_CONTAINER declares.
 */
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { createRequire } from 'node:module';
import { defineContainer } from '../built-index/container.ts';
import { compare6, forEachLine, SortedRanges, writeWords } from './sorted-ranges.ts';

/** Where the compiled index lives, relative to the build directory. */
export const ASN_INDEX_FILE = 'data/asn-index.bin';
/** The compiled form's parts: the ranges (IPv6 in four words each, high first), then by row its AS number and organisation id. */
export const ASN_CONTAINER = defineContainer({
  magic: 'ASNIDX02',
  format: 2,
  columns: { start4: Uint32Array, end4: Uint32Array, start6: Uint32Array, end6: Uint32Array, asns: Uint32Array, orgIds: Uint32Array },
  lists: ['orgs'],
});
const require = createRequire(import.meta.url);

/**
 * The CSV files and the data version they carry (the npm package version): the copy
 * `npm run data:update` left in `freshDir` when there is one, else the installed package.
 */
export function asnSourceFiles(freshDir?: string): { v4: string; v6: string; version: string } {
  if (freshDir && existsSync(path.join(freshDir, 'asn-ipv4-num.csv')) && existsSync(path.join(freshDir, 'package.json'))) {
    const pkg = JSON.parse(readFileSync(path.join(freshDir, 'package.json'), 'utf8')) as { version: string };
    return { v4: path.join(freshDir, 'asn-ipv4-num.csv'), v6: path.join(freshDir, 'asn-ipv6-num.csv'), version: pkg.version };
  }
  const pkg = require('@ip-location-db/asn/package.json') as { version: string };
  return {
    v4: require.resolve('@ip-location-db/asn/asn-ipv4-num.csv'),
    v6: require.resolve('@ip-location-db/asn/asn-ipv6-num.csv'),
    version: pkg.version,
  };
}

/** Rows [0, v4Count) are IPv4 ranges, the rest IPv6; asn and org are indexed by row. */
export class AsnIndex extends SortedRanges {
  /** The data version (npm package version of `@ip-location-db/asn`). */
  readonly version: string;
  /** Each distinct organisation name once. */
  readonly orgs: readonly string[];
  private readonly asns: Uint32Array;
  private readonly orgIds: Uint32Array;

  constructor(version: string, ranges: readonly [Uint32Array, Uint32Array, Uint32Array, Uint32Array, Uint32Array, Uint32Array], orgs: readonly string[]) {
    super(ranges[0], ranges[1], ranges[2], ranges[3]);
    this.version = version;
    [, , , , this.asns, this.orgIds] = ranges;
    this.orgs = orgs;
  }

  asn(row: number): number { return this.asns[row]!; }
  orgId(row: number): number { return this.orgIds[row]!; }

  /** The compiled form: a built-index container (ASN_CONTAINER). */
  serialize(): Buffer {
    return ASN_CONTAINER.encode({
      version: this.version, start4: this.start4, end4: this.end4, start6: this.start6, end6: this.end6,
      asns: this.asns, orgIds: this.orgIds, orgs: [...this.orgs],
    });
  }

  /** Reads serialize()'s output; undefined when it is not a whole index of this format. */
  static load(file: Uint8Array): AsnIndex | undefined {
    const parts = ASN_CONTAINER.decode(file);
    if (!parts) return undefined;
    const { start4, end4, start6, end6, asns, orgIds, orgs } = parts;
    const rows = start4.length + start6.length / 4;
    if (end4.length !== start4.length || end6.length !== start6.length || start6.length % 4 !== 0) return undefined;
    if (asns.length !== rows || orgIds.length !== rows) return undefined;
    // A network naming an organisation the file does not hold would answer no name at all.
    for (let i = 0; i < orgIds.length; i++) if (orgIds[i]! >= orgs.length) return undefined;
    return new AsnIndex(parts.version, [start4, end4, start6, end6, asns, orgIds], orgs);
  }

  /** Compiles the `-num` CSV texts (IPv4 and IPv6) into an index. Throws on a malformed file. */
  static compile(v4Csv: string, v6Csv: string, version: string): AsnIndex {
    const n4 = countLines(v4Csv);
    const n6 = countLines(v6Csv);
    const start4 = new Uint32Array(n4);
    const end4 = new Uint32Array(n4);
    const start6 = new Uint32Array(4 * n6);
    const end6 = new Uint32Array(4 * n6);
    const asns = new Uint32Array(n4 + n6);
    const orgIds = new Uint32Array(n4 + n6);
    const orgIdOf = new Map<string, number>();
    const orgs: string[] = [];
    let row = 0;
    const addRow = (asn: string, org: string) => {
      asns[row] = Number(asn);
      let id = orgIdOf.get(org);
      if (id === undefined) {
        id = orgs.push(org) - 1;
        orgIdOf.set(org, id);
      }
      orgIds[row++] = id;
    };
    forEachRow(v4Csv, (start, end, asn, org) => {
      start4[row] = Number(start);
      end4[row] = Number(end);
      if (row > 0 && start4[row]! < start4[row - 1]!) throw new Error(`ASN CSV: IPv4 rows not sorted at ${start}`);
      addRow(asn, org);
    });
    forEachRow(v6Csv, (start, end, asn, org) => {
      writeWords(start6, row - n4, BigInt(start));
      writeWords(end6, row - n4, BigInt(end));
      if (row > n4 && compare6(start6, row - n4, start6.subarray((row - n4 - 1) * 4)) < 0) {
        throw new Error(`ASN CSV: IPv6 rows not sorted at ${start}`);
      }
      addRow(asn, org);
    });
    return new AsnIndex(version, [start4, end4, start6, end6, asns, orgIds], orgs);
  }

  /** Compiles straight from the installed package's CSV files. */
  static compileFromPackage(): AsnIndex {
    const files = asnSourceFiles();
    return AsnIndex.compile(readFileSync(files.v4, 'utf8'), readFileSync(files.v6, 'utf8'), files.version);
  }
}

function countLines(csv: string): number {
  let count = 0;
  for (let at = 0; at < csv.length; ) {
    let eol = csv.indexOf('\n', at);
    if (eol === -1) eol = csv.length;
    if (eol > at && !(eol === at + 1 && csv.charCodeAt(at) === 13)) count++;
    at = eol + 1;
  }
  return count;
}

/** Calls back with each `start,end,asn,org` row; org unquoted (a "" inside quotes is one "). */
function forEachRow(csv: string, visit: (start: string, end: string, asn: string, org: string) => void): void {
  forEachLine(csv, (line) => {
    const c1 = line.indexOf(',');
    const c2 = line.indexOf(',', c1 + 1);
    const c3 = line.indexOf(',', c2 + 1);
    if (c1 < 1 || c2 < 0 || c3 < 0) throw new Error(`ASN CSV: malformed line "${line.slice(0, 80)}"`);
    let org = line.slice(c3 + 1);
    if (org.length > 1 && org.startsWith('"') && org.endsWith('"')) org = org.slice(1, -1).replaceAll('""', '"');
    // The serialized form separates names with newlines.
    visit(line.slice(0, c1), line.slice(c1 + 1, c2), line.slice(c2 + 1, c3), org.replaceAll('\n', ' '));
  });
}
