/**
 * The built indexes' one file format (container.ts): what is written comes back part for
 * part, and a file that is not whole, not of this kind, version, format or byte order, or
 * whose parts do not lie where they must, is refused rather than read.
 */
import { endianness } from 'node:os';
import { describe, expect, it } from 'vitest';
import { headerOf, startOf, withHeader } from '../../../tests/support/container-file.ts';
import { Container, defineContainer, grown, type ContentsOf } from './container.ts';

const SAMPLE = defineContainer({
  magic: 'SAMPLE01',
  format: 3,
  columns: { u8: Uint8Array, u16: Uint16Array, u32: Uint32Array, i32: Int32Array, f32: Float32Array, f64: Float64Array },
  texts: ['text'],
  lists: ['list', 'empty'],
});
type Sample = ContentsOf<typeof SAMPLE>;

/** Values no other column holds, odd lengths (so each part but the last is padded), made afresh each time. */
const sample = (): Sample => ({
  version: 'data 1',
  u8: Uint8Array.of(1, 255, 7),
  u16: Uint16Array.of(65535, 2, 3, 4, 5),
  u32: Uint32Array.of(4_000_000_000, 6),
  i32: Int32Array.of(-2_000_000_000, 8, -9),
  f32: Float32Array.of(1.5, -0.25, 3e30),
  f64: Float64Array.of(Math.PI, -1e300, 2 ** 53 + 2),
  text: 'Köln\nUlm ✓',
  list: ['Kraków', '', 'Zürich'],
  empty: [],
});


/** Each part as plain values. */
const plain = (data: Sample) => Object.fromEntries(Object.entries(data).map(([k, v]) => [k, ArrayBuffer.isView(v) ? [...(v as Uint8Array)] : v]));

describe('a container', () => {
  it('reads back every column, text and list it wrote, each column of its own type', () => {
    const data = sample();
    const back = SAMPLE.decode(SAMPLE.encode(data))!;
    expect(plain(back)).toEqual(plain(data));
    for (const name of SAMPLE.columnNames) expect(back[name].constructor, name).toBe(data[name].constructor);
  });

  it.each(SAMPLE.columnNames)('round-trips the %s column alone changed', (name) => {
    const data = sample();
    const changed = sample();
    changed[name][0] = 2;
    const back = SAMPLE.decode(SAMPLE.encode(changed))!;
    expect([...back[name]]).toEqual([...changed[name]]);
    expect([...back[name]]).not.toEqual([...data[name]]);
  });

  it('writes the magic, the header length, a JSON header, then each part 8-byte aligned as it is in memory', () => {
    const data = sample();
    const file = SAMPLE.encode(data);
    expect(file.toString('latin1', 0, 8)).toBe('SAMPLE01');
    const header = headerOf(file);
    expect(header).toMatchObject({ format: 3, byteOrder: endianness(), version: 'data 1' });
    expect(Object.keys(header.parts)).toEqual(['text', 'list', 'empty', 'u8', 'u16', 'u32', 'i32', 'f32', 'f64']);
    expect(header.parts.list![2]).toBe(3);
    expect(header.parts.empty![2]).toBe(0);
    expect(header.parts.text![2]).toBeUndefined();
    const start = startOf(file);
    expect(start % 8).toBe(0);
    let end = 0;
    for (const [name, [offset, length]] of Object.entries(header.parts)) {
      expect(offset % 8, name).toBe(0);
      expect(offset, name).toBe(Math.ceil(end / 8) * 8);
      end = offset + length;
      const value = name === 'text' ? Buffer.from(data.text) : name === 'list' ? Buffer.from('Kraków\n\nZürich') : name === 'empty' ? Buffer.alloc(0)
        : data[name as 'u8'];
      expect(file.subarray(start + offset, start + end).equals(Buffer.from(value.buffer, value.byteOffset, value.byteLength)), name).toBe(true);
    }
    expect(file.length).toBe(start + Math.ceil(end / 8) * 8);
  });

  it('reads columns as views on the file, not copies', () => {
    const file = SAMPLE.encode(sample());
    const back = SAMPLE.decode(file)!;
    expect(back.u32.buffer).toBe(file.buffer);
    expect(back.u32.byteOffset).toBe(file.byteOffset + startOf(file) + headerOf(file).parts.u32![0]);
  });

  it('reads a file that does not start on an 8-byte boundary of its memory', () => {
    const file = SAMPLE.encode(sample());
    const shifted = Buffer.alloc(file.length + 3);
    file.copy(shifted, 3);
    expect(plain(SAMPLE.decode(shifted.subarray(3))!)).toEqual(plain(sample()));
  });

  it('writes the columns of subarrays, not of their whole buffers', () => {
    const data = sample();
    data.u32 = Uint32Array.of(9, 10, 11, 12).subarray(1, 3);
    expect([...SAMPLE.decode(SAMPLE.encode(data))!.u32]).toEqual([10, 11]);
  });

  it('keeps a list of one empty string apart from an empty list', () => {
    const data = sample();
    data.list = [''];
    const back = SAMPLE.decode(SAMPLE.encode(data))!;
    expect(back.list).toEqual(['']);
    expect(back.empty).toEqual([]);
  });

  it('refuses to write a list whose string holds a line feed', () => {
    const data = sample();
    data.list = ['one', 'two\nthree'];
    expect(() => SAMPLE.encode(data)).toThrow('a string of list holds a line feed');
  });

  it('reads a file cut right after its last part', () => {
    const only = defineContainer({ magic: 'SAMPLE01', format: 3, columns: { u8: Uint8Array } });
    const file = only.encode({ version: 'v', u8: Uint8Array.of(1, 2, 3) });
    const end = startOf(file) + 3;
    expect(file.length).toBe(startOf(file) + 8);
    expect([...only.decode(file.subarray(0, end))!.u8]).toEqual([1, 2, 3]);
    expect(only.decode(file.subarray(0, end - 1))).toBeUndefined();
  });

  it('is defined only with a magic of 8 printable ASCII characters', () => {
    expect(() => defineContainer({ magic: 'SHORT', format: 1, columns: {} })).toThrow('8 ASCII characters');
    expect(() => defineContainer({ magic: 'NINE CHAR', format: 1, columns: {} })).toThrow('8 ASCII characters');
    expect(() => defineContainer({ magic: 'KÖLN0001', format: 1, columns: {} })).toThrow('8 ASCII characters');
    expect(() => defineContainer({ magic: 'TAB\t0001', format: 1, columns: {} })).toThrow('8 ASCII characters');
    expect(defineContainer({ magic: ' ~ASCII~', format: 1, columns: {} })).toBeInstanceOf(Container);
  });
});

describe('a container refuses', () => {
  it.each<[string, (file: Buffer) => Buffer, string?]>([
    ['a file built from other data', (f) => f, 'data 2'],
    ['an empty file', () => Buffer.alloc(0)],
    ['a file of the magic alone', (f) => f.subarray(0, 8)],
    ['a file shorter than its header length', (f) => f.subarray(0, 12 + f.readUInt32LE(8) - 1)],
    ['another magic', (f) => Buffer.concat([Buffer.from('SAMPLE02'), f.subarray(8)])],
    ['a magic with one byte corrupted', (f) => { const c = Buffer.from(f); c[7] = 0x30; return c; }],
    ['a header that is not JSON', (f) => { const c = Buffer.from(f); c.write('{', 13); return c; }],
    ['another format', (f) => withHeader(f, (h) => { h.format = 2; })],
    ['another byte order', (f) => withHeader(f, (h) => { h.byteOrder = h.byteOrder === 'LE' ? 'BE' : 'LE'; })],
    ['a version that is not a string', (f) => withHeader(f, (h) => { (h as { version: unknown }).version = 1; })],
    ['a header without parts', (f) => withHeader(f, (h) => { (h as { parts: unknown }).parts = null; })],
    ['a header without a column', (f) => withHeader(f, (h) => { delete h.parts.f32; })],
    ['a header without a text', (f) => withHeader(f, (h) => { delete h.parts.text; })],
    ['a header without a list', (f) => withHeader(f, (h) => { delete h.parts.empty; })],
    ['a part that is not a pair', (f) => withHeader(f, (h) => { (h.parts as Record<string, unknown>).u16 = 8; })],
    ['a column off its 8-byte boundary', (f) => withHeader(f, (h) => { h.parts.u32![0] += 4; })],
    ['a text off its 8-byte boundary', (f) => withHeader(f, (h) => { h.parts.text![0] += 1; h.parts.text![1] -= 1; })],
    ['a list off its 8-byte boundary', (f) => withHeader(f, (h) => { h.parts.list![0] += 2; h.parts.list![1] -= 2; })],
    ['a negative offset', (f) => withHeader(f, (h) => { h.parts.u8![0] = -8; })],
    ['a negative length', (f) => withHeader(f, (h) => { h.parts.u8![1] = -1; })],
    ['an offset that is not a whole number', (f) => withHeader(f, (h) => { h.parts.u8![0] = 0.5; })],
    ['a length that is not a whole number', (f) => withHeader(f, (h) => { h.parts.u8![1] = 1.5; })],
    ['a column whose length is not whole elements', (f) => withHeader(f, (h) => { h.parts.u16![1] -= 1; })],
    ['a part past the end of the file', (f) => withHeader(f, (h) => { h.parts.f64![1] += 8; })],
    ['a file cut inside its last part', (f) => f.subarray(0, startOf(f) + headerOf(f).parts.f64![0] + headerOf(f).parts.f64![1] - 1)],
    ['a list whose string count is not its lines', (f) => withHeader(f, (h) => { h.parts.list![2] = 2; })],
    ['a list without its string count', (f) => withHeader(f, (h) => { h.parts.list!.length = 2; })],
  ])('%s', (_, damage, version = 'data 1') => {
    const file = SAMPLE.encode(sample());
    expect(SAMPLE.decode(file, 'data 1')).toBeDefined();
    expect(SAMPLE.decode(damage(file), version)).toBeUndefined();
  });

  it('... but reads any version when none is asked for', () => {
    expect(SAMPLE.decode(SAMPLE.encode(sample()))?.version).toBe('data 1');
  });

  it('... that is a string: a version of another type is refused even when none is asked for', () => {
    expect(SAMPLE.decode(withHeader(SAMPLE.encode(sample()), (h) => { (h as { version: unknown }).version = 1; }))).toBeUndefined();
  });
});

describe('growing columns', () => {
  it('give a builder a column of each declared type, grown past their first size, with the values pushed', () => {
    const growing = SAMPLE.growing();
    expect(Object.keys(growing)).toEqual(SAMPLE.columnNames);
    for (let i = 0; i < 2500; i++) growing.u32.push(i * 3);
    growing.f64.push(0.5);
    growing.i32.push(-7);
    expect(growing.u32.length).toBe(2500);
    const columns = grown(growing);
    expect(Object.keys(columns)).toEqual(SAMPLE.columnNames);
    for (const name of SAMPLE.columnNames) expect(columns[name].constructor, name).toBe(SAMPLE.spec.columns[name]);
    expect(columns.u32).toHaveLength(2500);
    expect([columns.u32[0], columns.u32[1023], columns.u32[1024], columns.u32[2049], columns.u32[2499]]).toEqual([0, 3069, 3072, 6147, 7497]);
    expect([...columns.f64]).toEqual([0.5]);
    expect([...columns.i32]).toEqual([-7]);
    expect([...columns.u8]).toEqual([]);
  });

  it('hand over arrays of their own, which later pushes do not change', () => {
    const growing = SAMPLE.growing();
    growing.u16.push(1);
    const first = growing.u16.done();
    growing.u16.push(2);
    expect([...first]).toEqual([1]);
    expect([...growing.u16.done()]).toEqual([1, 2]);
    expect(first.buffer.byteLength).toBe(2);
  });
});
