/**
 * The one file format of the indexes `npm run build` writes to dist/data/ (the city search,
 * the networks, the ASN ranges), so the server loads each in milliseconds instead of
 * building it. An index declares its parts once, in a ContainerSpec: its columns (typed
 * arrays, by name and type), its texts (strings) and its lists (string lists); its data type
 * (IndexContents), its encoder and decoder all follow from that one table.
 *
 * Layout: an 8-character ASCII magic (the index's kind and container version), a
 * little-endian u32 header length, a JSON header ({format, byteOrder, version, parts}: `parts` maps
 * each part's name to [byte offset after the header, byte length, strings of a list]),
 * then each part 8-byte aligned: columns as they are in memory (views on the file's buffer
 * when read, not copies), texts as UTF-8, lists as UTF-8 lines (a split, not a JSON parse of
 * 200,000 strings; no string of a list may hold a line feed). The header names the byte
 * order of the machine that wrote it; a machine of the other order refuses the file (and
 * builds the index itself).
 */

import { endianness } from 'node:os';

/** The typed arrays a column may be. */
export type ColumnType =
  | Uint8ArrayConstructor | Uint16ArrayConstructor | Uint32ArrayConstructor
  | Int32ArrayConstructor | Float32ArrayConstructor | Float64ArrayConstructor;

export interface ContainerSpec<C extends Record<string, ColumnType>, T extends string, L extends string> {
  /** Eight ASCII characters; a file of another magic is refused. */
  magic: string;
  /** The layout's version within the magic; bumped when a part changes meaning. */
  format: number;
  columns: C;
  texts?: readonly T[];
  lists?: readonly L[];
}

/** The array a column of type `T` holds (on any buffer: the file's when read, its own when built). */
export type ColumnOf<T extends ColumnType> =
  T extends Uint8ArrayConstructor ? Uint8Array : T extends Uint16ArrayConstructor ? Uint16Array
    : T extends Uint32ArrayConstructor ? Uint32Array : T extends Int32ArrayConstructor ? Int32Array
      : T extends Float32ArrayConstructor ? Float32Array : Float64Array;

/** The data an index of `spec` holds: `version` (what it was built from), then each part under its name. */
export type IndexContents<C extends Record<string, ColumnType>, T extends string, L extends string> =
  { version: string } & { -readonly [K in keyof C]: ColumnOf<C[K]> } & { [K in T]: string } & { [K in L]: string[] };

/** [byte offset after the header, byte length, strings of a list]. */
type Part = [number, number, number?];
interface Header { format: number; byteOrder: 'LE' | 'BE'; version: string; parts: Record<string, Part> }

const PREFIX = 12;
export const align = (n: number): number => Math.ceil(n / 8) * 8;

export class Container<C extends Record<string, ColumnType>, T extends string, L extends string> {
  readonly spec: ContainerSpec<C, T, L>;

  constructor(spec: ContainerSpec<C, T, L>) {
    if (!/^[\x20-\x7e]{8}$/.test(spec.magic)) throw new Error(`a container's magic is 8 ASCII characters, not "${spec.magic}"`);
    this.spec = spec;
  }

  /** The columns' names, in the spec's order. */
  get columnNames(): Array<keyof C & string> {
    return Object.keys(this.spec.columns);
  }

  /** A growing column of its type for every column, for a builder to push to (grown() gives their values). */
  growing(): Growing<C> {
    return Object.fromEntries(this.columnNames.map((name) => [name, new GrowingColumn(this.spec.columns[name]!)])) as Growing<C>;
  }

  private get texts(): readonly T[] { return this.spec.texts ?? []; }
  private get lists(): readonly L[] { return this.spec.lists ?? []; }

  /** The index as bytes. Throws when a string of a list holds a line feed (it would read back as two). */
  encode(data: IndexContents<C, T, L>): Buffer {
    const record = data as unknown as Record<string, unknown>;
    const blobs: Array<[string, Uint8Array, number?]> = [];
    for (const name of this.texts) blobs.push([name, Buffer.from(record[name] as string)]);
    for (const name of this.lists) {
      const list = record[name] as string[];
      const text = list.join('\n');
      if (list.length > 0 && text.split('\n').length !== list.length) throw new Error(`a string of ${name} holds a line feed`);
      blobs.push([name, Buffer.from(text), list.length]);
    }
    for (const name of this.columnNames) {
      const a = record[name] as ArrayBufferView;
      blobs.push([name, new Uint8Array(a.buffer, a.byteOffset, a.byteLength)]);
    }
    const parts: Record<string, Part> = {};
    let at = 0;
    for (const [name, bytes, strings] of blobs) {
      parts[name] = strings === undefined ? [at, bytes.byteLength] : [at, bytes.byteLength, strings];
      at = align(at + bytes.byteLength);
    }
    const header: Header = { format: this.spec.format, byteOrder: endianness(), version: data.version, parts };
    const json = Buffer.from(JSON.stringify(header));
    const start = align(PREFIX + json.length);
    const out = Buffer.alloc(start + at);
    out.write(this.spec.magic, 0, 'latin1');
    out.writeUInt32LE(json.length, 8);
    json.copy(out, PREFIX);
    for (const [name, bytes] of blobs) out.set(bytes, start + parts[name]![0]);
    return out;
  }

  /** The header of a file of this magic, with where its parts start; undefined when it is not one. */
  private header(file: Buffer): { header: Header; start: number } | undefined {
    if (file.length < PREFIX || file.toString('latin1', 0, 8) !== this.spec.magic) return undefined;
    const length = file.readUInt32LE(8);
    if (PREFIX + length > file.length) return undefined;
    try {
      const header = JSON.parse(file.toString('utf8', PREFIX, PREFIX + length)) as Header;
      const ours = header.format === this.spec.format && header.byteOrder === endianness() && typeof header.version === 'string';
      return ours && typeof header.parts === 'object' && header.parts !== null ? { header, start: align(PREFIX + length) } : undefined;
    } catch {
      return undefined;
    }
  }

  /**
   * Reads encode's bytes: undefined when they are not a whole index of this magic and
   * format, or were built from other data than `version` (when given). Columns are views
   * on the file's memory (copied first when it does not start on an 8-byte boundary).
   */
  decode(input: Uint8Array, version?: string): IndexContents<C, T, L> | undefined {
    const file = Buffer.from(input.buffer, input.byteOffset, input.byteLength);
    const found = this.header(file);
    if (!found || (version !== undefined && found.header.version !== version)) return undefined;
    const { header, start } = found;
    const bytes = file.byteOffset % 8 === 0 ? file : Buffer.from(file);
    /** The part's [offset in `bytes`, length], when it lies wholly inside the file on an 8-byte boundary. */
    const region = (name: string): Part | undefined => {
      const part = header.parts[name];
      if (!Array.isArray(part) || !Number.isInteger(part[0]) || !Number.isInteger(part[1]) || part[0] < 0 || part[1] < 0) return undefined;
      return part[0] % 8 === 0 && start + part[0] + part[1] <= bytes.length ? [start + part[0], part[1], part[2]] : undefined;
    };
    const out: Record<string, unknown> = { version: header.version };
    for (const name of this.texts) {
      const part = region(name);
      if (!part) return undefined;
      out[name] = bytes.toString('utf8', part[0], part[0] + part[1]);
    }
    for (const name of this.lists) {
      const part = region(name);
      if (!part || !Number.isInteger(part[2])) return undefined;
      const list = part[2] === 0 ? [] : bytes.toString('utf8', part[0], part[0] + part[1]).split('\n');
      if (list.length !== part[2]) return undefined;
      out[name] = list;
    }
    for (const name of this.columnNames) {
      const part = region(name);
      const Type = this.spec.columns[name]!;
      if (!part || part[1] % Type.BYTES_PER_ELEMENT !== 0) return undefined;
      out[name] = new Type(bytes.buffer as ArrayBuffer, bytes.byteOffset + part[0], part[1] / Type.BYTES_PER_ELEMENT);
    }
    return out as IndexContents<C, T, L>;
  }
}

/** A column a builder pushes to, growing as it goes (it does not know the sizes ahead). */
export class GrowingColumn<A extends ColumnOf<ColumnType>> {
  private array: A;
  length = 0;
  private readonly Type: ColumnType;

  constructor(Type: ColumnType) {
    this.Type = Type;
    this.array = new Type(1024) as A;
  }

  push(value: number): void {
    if (this.length === this.array.length) {
      const bigger = new this.Type(this.array.length * 2) as A;
      bigger.set(this.array);
      this.array = bigger;
    }
    this.array[this.length++] = value;
  }

  /** The values pushed, in an array of their length. */
  done(): A {
    return this.array.slice(0, this.length) as A;
  }
}

/** A growing column for each column of a spec. */
export type Growing<C extends Record<string, ColumnType>> = { [K in keyof C]: GrowingColumn<ColumnOf<C[K]>> };

/** Each growing column's values. */
export function grown<C extends Record<string, ColumnType>>(growing: Growing<C>): { -readonly [K in keyof C]: ColumnOf<C[K]> } {
  return Object.fromEntries(Object.entries(growing).map(([name, column]) => [name, column.done()])) as { -readonly [K in keyof C]: ColumnOf<C[K]> };
}

/** A container of `spec`, its types inferred from it. */
export function defineContainer<const C extends Record<string, ColumnType>, const T extends string = never, const L extends string = never>(
  spec: ContainerSpec<C, T, L>,
): Container<C, T, L> {
  return new Container(spec);
}

/** The data a container holds. */
export type ContentsOf<K> = K extends Container<infer C, infer T, infer L> ? IndexContents<C, T, L> : never;
