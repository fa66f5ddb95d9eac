import { describe, expect, it } from 'vitest';
import { encode, type Value } from '../../../tests/fixtures/mmdb-writer.ts';
import { MmdbDecoder } from './decoder.ts';

/** A decoder over the encodings of `values`, laid end to end, with each one's offset. */
function decoderOf(values: Value[]): { decoder: MmdbDecoder; offsets: number[] } {
  const bytes: number[] = [];
  const offsets = values.map((value) => bytes.push(...encode(value)) - encode(value).length);
  return { decoder: new MmdbDecoder(Buffer.from(bytes), 0), offsets };
}

describe('MmdbDecoder', () => {
  it.each<[string, Value, unknown]>([
    ['an empty string', '', ''],
    ['a country code', 'GB', 'GB'],
    ['an ASCII name', 'Mountain View', 'Mountain View'],
    ['a non-ASCII name', 'São Paulo', 'São Paulo'],
    ['a string longer than the shared ones', 'Moscow (Tsentralnyy administrativnyy okrug)', 'Moscow (Tsentralnyy administrativnyy okrug)'],
    ['a string over 284 bytes (two-byte size)', 'x'.repeat(300), 'x'.repeat(300)],
    ['a double', 51.5142, 51.5142],
    ['a uint16', 443, 443],
    ['a uint32', 4_000_000_000, 4_000_000_000],
    ['a uint64', { uint64: 2n ** 40n + 1n }, 2n ** 40n + 1n],
    ['a boolean', true, true],
    ['an array', ['a', 1, false], ['a', 1, false]],
    ['a nested map', { city: { names: { en: 'London' } }, subdivisions: [{ iso_code: 'ENG' }] }, { city: { names: { en: 'London' } }, subdivisions: [{ iso_code: 'ENG' }] }],
  ])('decodes %s', (_, value, expected) => {
    const { decoder, offsets } = decoderOf([value]);
    expect(decoder.decode(offsets[0]!)).toEqual(expected);
  });

  it('gives each of several same-length strings back intact, shared by content', () => {
    const names = ['Berlin', 'Bergen', 'Berlin', 'Dublin', 'Bergen'];
    const { decoder, offsets } = decoderOf(names);
    const read = offsets.map((o) => decoder.decode(o));
    expect(read).toEqual(names);
    expect(Object.is(read[0], read[2])).toBe(true);
  });

  it('reads a map entry by entry, skipping any value without decoding it', () => {
    const record = { city: 'Bracknell', nested: { a: [1, 2, { b: 'c' }] }, flag: true, big: { uint64: 5n }, latitude: 51.4136, country_code: 'GB' };
    const { decoder, offsets } = decoderOf([record]);
    const seen: Record<string, unknown> = {};
    const pairs = decoder.openMap(offsets[0]!);
    for (let i = 0; i < pairs; i++) {
      const key = decoder.value() as string;
      if (key === 'city' || key === 'country_code' || key === 'latitude') seen[key] = decoder.value();
      else {
        expect(decoder.nextIsContainer()).toBe(key === 'nested');
        decoder.skip();
      }
    }
    expect(seen).toEqual({ city: 'Bracknell', latitude: 51.4136, country_code: 'GB' });
  });

  it('says when a record is not a map', () => {
    const { decoder, offsets } = decoderOf(['just a string']);
    expect(decoder.openMap(offsets[0]!)).toBe(-1);
  });
});
