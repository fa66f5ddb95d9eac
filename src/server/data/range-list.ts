/**
 * An address list (Tor exits, iCloud Private Relay egress, VPN, proxy or hosting ranges)
 * compiled into the same kind of sorted-range index as the ASN data (sorted-ranges.ts).
 * The text has one address or CIDR a line; `#` starts a comment; a line may go on after
 * a comma (Apple's egress CSV: `172.224.224.0/27,GB,GB-EN,London,`) and, where the list
 * says so, its second field names the service (`198.51.100.0/24,ExampleVPN`). Ranges that
 * overlap or touch are merged into one, which keeps the first range's service name: a
 * lookup then finds at most one row. Lines that are not an address are skipped and
 * counted, so one bad line does not take the whole list away. Tests: range-list.test.ts.
 */
import { parseCidr } from '../../lib/ip-address.ts';
import { forEachLine, SortedRanges, writeWords } from './sorted-ranges.ts';

export interface ParseOptions {
  /** The second comma-separated field names the service (VPN and hosting lists). */
  labelColumn?: boolean;
}

/** What parsing a list text gave: the index, and how many lines were not addresses. */
export interface ParsedList {
  list: RangeList;
  /** Lines that were an address or CIDR (before ranges that touch are merged). */
  lines: number;
  skipped: number;
  /** The shortest prefix length seen per family (the widest range): 33 and 129 when the family has none. */
  widest: { 4: number; 6: number };
  /** The first skipped line (up to 80 characters), for the log. */
  firstSkipped?: string;
}

interface Range<T> { start: T; end: T; label: string }

const MAX6 = (1n << 128n) - 1n;

/** Merges sorted ranges that overlap or touch (touching only under the same name). */
function merge<T extends number | bigint>(sorted: Range<T>[], after: (end: T) => T): Range<T>[] {
  const out: Range<T>[] = [];
  for (const r of sorted) {
    const last = out.at(-1);
    // Overlap (start within last) or adjacency under one name: the same row.
    if (last && (r.start <= last.end || (r.start === after(last.end) && r.label === last.label))) {
      if (r.end > last.end) last.end = r.end;
    } else out.push({ ...r });
  }
  return out;
}

/** A compiled list: find4/find6 answer the row holding an address, label() its service name. */
export class RangeList extends SortedRanges {
  /** Per row (IPv4 rows first), the service name, '' when the list names none. */
  private readonly labels: readonly string[];

  private constructor(v4: Range<number>[], v6: Range<bigint>[]) {
    const start6 = new Uint32Array(4 * v6.length);
    const end6 = new Uint32Array(4 * v6.length);
    v6.forEach((r, row) => { writeWords(start6, row, r.start); writeWords(end6, row, r.end); });
    super(Uint32Array.from(v4, (r) => r.start), Uint32Array.from(v4, (r) => r.end), start6, end6);
    this.labels = [...v4.map((r) => r.label), ...v6.map((r) => r.label)];
  }

  /** The service name of a row found by find4/find6 ('' when the list names none). */
  label(row: number): string {
    return this.labels[row] ?? '';
  }

  /** Compiles a list text (see the module header). Never throws: bad lines are counted. */
  static parse(text: string, options: ParseOptions = {}): ParsedList {
    const v4: Range<number>[] = [];
    const v6: Range<bigint>[] = [];
    let skipped = 0;
    let firstSkipped: string | undefined;
    const widest = { 4: 33, 6: 129 };
    forEachLine(text, (raw) => {
      const hash = raw.indexOf('#');
      const line = (hash === -1 ? raw : raw.slice(0, hash)).trim();
      if (line === '') return;
      const fields = line.split(',');
      const cidr = parseCidr(fields[0]!.trim());
      if (!cidr) {
        skipped++;
        firstSkipped ??= line.slice(0, 80);
        return;
      }
      const label = options.labelColumn ? (fields[1] ?? '').trim() : '';
      widest[cidr.version] = Math.min(widest[cidr.version], cidr.bits);
      if (cidr.version === 4) {
        const start = cidr.base4!;
        v4.push({ start, end: start + 2 ** (32 - cidr.bits) - 1, label });
      } else {
        v6.push({ start: cidr.base, end: cidr.base | (MAX6 >> BigInt(cidr.bits)), label });
      }
    });
    v4.sort((a, b) => a.start - b.start);
    v6.sort((a, b) => (a.start < b.start ? -1 : a.start > b.start ? 1 : 0));
    return { list: new RangeList(merge(v4, (end) => end + 1), merge(v6, (end) => end + 1n)), lines: v4.length + v6.length, skipped, firstSkipped, widest };
  }
}
