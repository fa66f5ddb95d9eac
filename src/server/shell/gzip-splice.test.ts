import { crc32, gunzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { copyBlock, crc32Combine, SplicedGzip } from './gzip-splice.ts';

describe('crc32Combine', () => {
  it.each([
    ['', ''], ['a', ''], ['', 'b'], ['hello ', 'world'], ['é', '\u{1F600}'],
    ['x'.repeat(32768), 'y'.repeat(65537)], ['z'.repeat(1), 'w'.repeat(2 ** 20)],
  ])('of %j and %j is the CRC-32 of both in a row', (a, b) => {
    const [A, B] = [Buffer.from(a), Buffer.from(b)];
    expect(crc32Combine(crc32(A), crc32(B), B.length)).toBe(crc32(Buffer.concat([A, B])));
  });
});

describe('copyBlock', () => {
  // Lengths at the edges of deflate's length codes (3, 258) and of splitting into matches.
  it.each([
    [3, 3], [4, 10], [258, 258], [259, 300], [260, 260], [261, 1000], [516, 516], [517, 600], [1671, 5000], [3000, 32768],
  ])('repeats %i bytes from %i bytes back', (length, distance) => {
    const source = Buffer.from(Array.from({ length: distance }, (_, i) => 97 + ((i * 7) % 26)));
    const expected = Buffer.concat([source, source.subarray(0, length)]);
    // A gzip member: the source as a stored block, the copy, the end.
    const blocks: Buffer[] = [];
    for (let at = 0; at < source.length; at += 65535) {
      const chunk = source.subarray(at, at + 65535);
      const header = Buffer.from([0, chunk.length & 0xff, chunk.length >> 8, ~chunk.length & 0xff, (~chunk.length >> 8) & 0xff]);
      blocks.push(header, chunk);
    }
    const trailer = Buffer.alloc(8);
    trailer.writeUInt32LE(crc32(expected), 0);
    trailer.writeUInt32LE(expected.length, 4);
    const gz = Buffer.concat([Buffer.from([0x1f, 0x8b, 8, 0, 0, 0, 0, 0, 0, 0xff]), ...blocks, copyBlock(length, distance), Buffer.from([3, 0]), trailer]);
    expect(gunzipSync(gz).equals(expected)).toBe(true);
  });
});

describe('SplicedGzip', () => {
  const record = '{&quot;ip&quot;:[0,&quot;8.8.8.8&quot;],&quot;city&quot;:[0,&quot;Île &lt;x&gt;&quot;]}'.repeat(20);
  const statics = ['<html><head>' + 'static head '.repeat(100), ' short ', '', ' a long static between '.repeat(60), ' end </html>'];

  it.each([
    ['distinct parts', ['one', 'two', 'three', 'four']],
    ['a part repeated after a long static (sent as a copy)', [record, 'x', 'y', record]],
    ['repeats inside one run', [record, 'x', record, 'y']],
    ['empty parts', ['', '', '', '']],
    ['a repeat beyond deflate\'s 32 KiB window', [record, 'z'.repeat(40_000), 'q', record]],
    ['repeats shorter than a match', ['ab', 'c', 'ab', 'ab']],
  ])('decodes to the page for %s, the first time and from the memo', (_, parts) => {
    const firstOf = parts.map((p) => parts.indexOf(p));
    const gzip = new SplicedGzip(statics, firstOf, { level: 1, mergeBelow: 100, dictionary: 1024, memo: 8 });
    let page = statics[0]!;
    parts.forEach((p, i) => { page += p + statics[i + 1]!; });
    for (let i = 0; i < 2; i++) expect(gunzipSync(gzip.gzip(parts)).toString('utf8')).toBe(page);
  });

  it('compresses a repeat to a few bytes', () => {
    const parts = [record, 'x', 'y', record];
    const once = new SplicedGzip(statics, [0, 1, 2, 3], { level: 1, mergeBelow: 0, dictionary: 0, memo: 0 }).gzip(parts).length;
    const copied = new SplicedGzip(statics, [0, 1, 2, 0], { level: 1, mergeBelow: 0, dictionary: 0, memo: 0 }).gzip(parts).length;
    expect(once - copied).toBeGreaterThan(50);
  });
});
