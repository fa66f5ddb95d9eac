/**
 * The one loader of the built indexes (loader.ts), with an index of its own: a file is used
 * only when it holds the data at hand, a build is said once with why, its file kept or
 * removed as asked, a rebuild swaps the index in whole or leaves the one answering, and
 * /healthz's line says each state.
 */
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { ChildTaskError } from '../utils/child-task.ts';
import { collectGarbage } from '../utils/collect-garbage.ts';
import { loadBuiltIndex, type IndexPlan, type IndexSource } from './loader.ts';

vi.mock('../utils/collect-garbage.ts', () => ({ collectGarbage: vi.fn(() => true) }));

const dir = mkdtempSync(path.join(tmpdir(), 'built-index-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
let files = 0;
const file = (name = 'index') => path.join(dir, `${name}-${++files}.bin`);

/** The test's index: what it was built from and by whom. */
interface Toy { version: string; from: string }
const bytesOf = (toy: Toy) => Buffer.from(JSON.stringify(toy));
const write = (where: string, toy: Toy) => writeFileSync(where, bytesOf(toy));

function plan(version: string, overrides: Partial<IndexPlan<Toy>> = {}): IndexPlan<Toy> {
  return {
    version,
    files: [],
    decode: (bytes, v) => {
      try { const toy = JSON.parse(bytes.toString()) as Toy; return toy.version === v ? toy : undefined; } catch { return undefined; }
    },
    buildFile: async (out) => { await writeFile(out, bytesOf({ version, from: 'the build' })); return []; },
    ...overrides,
  };
}

function source(first: () => IndexPlan<Toy> | Error, again: (v: string) => IndexPlan<Toy> | undefined = () => undefined) {
  const warned: string[] = [];
  const logged: string[] = [];
  const spec: IndexSource<Toy, [string]> = {
    plan: first, replan: again, noun: 'toy index', building: 'the toy index from the data', unavailable: 'toy pages',
    answersOld: 'the toy pages answer from the data they had', warn: (m) => warned.push(m), log: (m) => logged.push(m),
  };
  return { spec, warned, logged };
}

describe('loadBuiltIndex', () => {
  it('uses the first file that holds the data at hand, saying nothing', async () => {
    const [stale, kept] = [file(), file()];
    write(stale, { version: 'v0', from: 'the stale file' });
    write(kept, { version: 'v1', from: 'the kept file' });
    const { spec, warned } = source(() => plan('v1', { files: [stale, kept] }));
    const handle = loadBuiltIndex(spec);
    expect(await handle.ready).toEqual({ version: 'v1', from: 'the kept file' });
    expect(handle.rebuiltBecause()).toBeUndefined();
    expect(handle.describe()).toBe('ok');
    expect(warned).toEqual([]);
  });

  it.each<[string, (where: string) => void, string]>([
    ['missing', () => {}, 'missing'],
    ['of other data', (where) => write(where, { version: 'v0', from: 'old' }), 'damaged or was built from other data'],
    ['damaged', (where) => writeFileSync(where, 'not an index'), 'damaged or was built from other data'],
  ])('builds when the built file is %s, says why once, and removes a file of its own once read', async (_, make, why) => {
    const built = file();
    make(built);
    const outs: string[] = [];
    const buildFile = async (out: string) => { outs.push(out); await writeFile(out, bytesOf({ version: 'v1', from: 'the build' })); return []; };
    const { spec, warned } = source(() => plan('v1', { files: [built, file()], buildFile, notes: ['a source is missing'] }));
    const handle = loadBuiltIndex(spec);
    expect(await handle.ready).toEqual({ version: 'v1', from: 'the build' });
    expect(handle.rebuiltBecause()).toBe(`${built} is ${why}`);
    expect(warned).toEqual([`${built} is ${why}: building the toy index from the data now (npm run build writes the file)`, 'a source is missing']);
    expect(handle.describe()).toBe(`ok (rebuilt: ${built} is ${why})`);
    expect(outs).toEqual([expect.stringMatching(new RegExp(`^${tmpdir()}/built-index\\.${process.pid}\\.\\d+\\.bin$`))]);
    expect(existsSync(outs[0]!)).toBe(false);
  });

  it('keeps the file it built when asked, for the next start', async () => {
    const keepAt = file('kept');
    const handle = loadBuiltIndex(source(() => plan('v1', { files: [file()], keepAt })).spec);
    await handle.ready;
    expect(existsSync(keepAt)).toBe(true);
  });

  it('builds without a word when there is no file to look for, and passes on what the build says', async () => {
    const { spec, warned } = source(() => plan('v1', { buildFile: async (out) => { await writeFile(out, bytesOf({ version: 'v1', from: 'x' })); return ['no alternate names']; } }));
    const handle = loadBuiltIndex(spec);
    await handle.ready;
    expect(handle.rebuiltBecause()).toBeUndefined();
    expect(warned).toEqual(['no alternate names']);
  });

  it('builds in this thread when the plan says so, passing on its notes', async () => {
    const { spec, warned } = source(() => plan('v1', { buildHere: async () => ({ index: { version: 'v1', from: 'here' }, notes: ['said here'] }) }));
    expect(await loadBuiltIndex(spec).ready).toEqual({ version: 'v1', from: 'here' });
    expect(warned).toEqual(['said here']);
  });

  it('is loading until ready, with no time, then the time it took', async () => {
    let finish: () => void = () => {};
    const gate = new Promise<void>((resolve) => { finish = resolve; });
    const { spec } = source(() => plan('v1', { buildFile: async (out) => { await gate; await writeFile(out, bytesOf({ version: 'v1', from: 'x' })); return []; } }));
    const started = performance.now();
    const handle = loadBuiltIndex(spec);
    await new Promise((r) => setTimeout(r, 20));
    expect([handle.current(), handle.readyMs(), handle.describe()]).toEqual([undefined, undefined, 'loading']);
    finish();
    const index = await handle.ready;
    expect(handle.current()).toBe(index);
    expect(handle.readyMs()).toBeGreaterThanOrEqual(20);
    expect(handle.readyMs()).toBeLessThanOrEqual(performance.now() - started);
  });

  it('says loading with why the built file was not used while it builds', async () => {
    const built = file();
    const seen: string[] = [];
    const { spec } = source(() => plan('v1', { files: [built] }));
    const handle = loadBuiltIndex({ ...spec, warn: () => seen.push(handle.describe()) });
    await handle.ready;
    expect(seen).toEqual([`loading (rebuilt: ${built} is missing)`]);
  });

  it('adds the summary of a loaded index to its line', async () => {
    const { spec } = source(() => plan('v1', { files: [file()] }));
    const handle = loadBuiltIndex({ ...spec, summary: (toy) => `built by ${toy.from}` });
    await handle.ready;
    expect(handle.describe()).toMatch(/^ok \(built by the build\) \(rebuilt: .* is missing\)$/);
  });

  it('is an Error, unsaid, when the plan has nothing to build from', async () => {
    const { spec, warned } = source(() => new Error('the ASN data is not loaded'));
    const handle = loadBuiltIndex({ ...spec, summary: () => 'never' });
    expect(await handle.ready).toEqual(new Error('the ASN data is not loaded'));
    expect(handle.describe()).toBe('missing (the ASN data is not loaded)');
    expect(handle.readyMs()).toBeGreaterThanOrEqual(0);
    expect(warned).toEqual([]);
  });

  it.each<[string, unknown, string]>([
    ['its message', new Error('cities.pbf holds no places'), 'cities.pbf holds no places'],
    ['what a failed child said, not how it ended', new ChildTaskError('build-child.ts exited with code 1: no places', 'no places'), 'no places'],
    ['how a child ended that said nothing', new ChildTaskError('build-child.ts was stopped (SIGKILL)', undefined), 'build-child.ts was stopped (SIGKILL)'],
    ['a thrown string', 'plain', 'plain'],
  ])('is an Error, said once, when the build fails: %s', async (_, thrown, said) => {
    const { spec, warned } = source(() => plan('v1', { buildFile: () => Promise.reject(thrown) }));
    const handle = loadBuiltIndex(spec);
    expect(await handle.ready).toEqual(new Error(said));
    expect(handle.current()).toBe(await handle.ready);
    expect(warned).toEqual([`toy pages unavailable (${said})`]);
    expect(handle.describe()).toBe(`missing (${said})`);
  });

  it('is an Error when the built file does not hold the version asked for, and removes it', async () => {
    let out = '';
    const { spec, warned } = source(() => plan('v1', { buildFile: async (o) => { out = o; await writeFile(o, bytesOf({ version: 'v2', from: 'x' })); return []; } }));
    expect(await loadBuiltIndex(spec).ready).toEqual(new Error('the rebuilt index is not of v1 (the data changed meanwhile)'));
    expect(warned).toEqual(['toy pages unavailable (the rebuilt index is not of v1 (the data changed meanwhile))']);
    expect(out).not.toBe('');
    expect(existsSync(out)).toBe(false);
  });

  it('is an Error, said once, when the plan itself throws', async () => {
    const { spec, warned } = source(() => { throw new Error('no package'); });
    expect(await loadBuiltIndex(spec).ready).toEqual(new Error('no package'));
    expect(warned).toEqual(['toy pages unavailable (no package)']);
  });
});

describe('rebuild', () => {
  const loaded = async (again: (v: string) => IndexPlan<Toy> | undefined) => {
    const made = source(() => plan('v1'), again);
    const handle = loadBuiltIndex({ ...made.spec, summary: (toy) => toy.from });
    const first = await handle.ready;
    return { ...made, handle, first };
  };

  it('builds for newer data and swaps it in whole, the start\'s promise replaced, with one line', async () => {
    const { handle, first, logged } = await loaded((v) => plan(v, { buildFile: async (out) => { await writeFile(out, bytesOf({ version: v, from: `rebuild ${v}` })); return []; } }));
    const rebuilt = await handle.rebuild('v2');
    expect(rebuilt).toEqual({ version: 'v2', from: 'rebuild v2' });
    expect(rebuilt).not.toBe(first);
    expect(handle.current()).toBe(rebuilt);
    expect(await handle.ready).toBe(rebuilt);
    expect(handle.describe()).toBe('ok (rebuild v2)');
    expect(logged).toEqual([expect.stringMatching(/^rebuilt the toy index from the newer data and swapped it in \(\d+ ms, rebuild v2\)$/)]);
    // The rebuilt index's version is what answers now: the same data again is not built again.
    expect(await handle.rebuild('v2')).toBe(rebuilt);
    expect(logged).toHaveLength(1);
  });

  it('builds nothing when the data is that of the index answering, or there is nothing to build from', async () => {
    const build = vi.fn(async (): Promise<string[]> => []);
    const { handle, first, logged } = await loaded((v) => (v === 'none' ? undefined : plan(v, { buildFile: build })));
    expect(await handle.rebuild('v1')).toBe(first);
    expect(await handle.rebuild('none')).toBe(first);
    expect(build).not.toHaveBeenCalled();
    expect(logged).toEqual([]);
  });

  it('keeps the index answering when the rebuild fails, and says so', async () => {
    const { handle, first, logged } = await loaded((v) => plan(v, { buildFile: () => Promise.reject(new ChildTaskError('child.ts exited with code 1: bad CSV', 'bad CSV')) }));
    expect(await handle.rebuild('v2')).toBe(first);
    expect(handle.current()).toBe(first);
    expect(await handle.ready).toBe(first);
    expect(logged).toEqual(['the toy index could not be rebuilt from the newer data (bad CSV); the toy pages answer from the data they had']);
  });

  it('runs rebuilds one after the other, each after the load', async () => {
    const order: string[] = [];
    const { handle } = await loaded((v) => plan(v, {
      buildFile: async (out) => {
        order.push(`start ${v}`);
        await new Promise((r) => setTimeout(r, v === 'v2' ? 30 : 0));
        await writeFile(out, bytesOf({ version: v, from: v }));
        order.push(`end ${v}`);
        return [];
      },
    }));
    const [a, b] = await Promise.all([handle.rebuild('v2'), handle.rebuild('v3')]);
    expect(order).toEqual(['start v2', 'end v2', 'start v3', 'end v3']);
    expect([a, b]).toEqual([{ version: 'v2', from: 'v2' }, { version: 'v3', from: 'v3' }]);
    expect(handle.current()).toBe(b);
  });

  it('replaces an index that could not be loaded', async () => {
    const made = source(() => new Error('no data yet'), (v) => plan(v));
    const handle = loadBuiltIndex(made.spec);
    await handle.ready;
    expect(await handle.rebuild('v1')).toEqual({ version: 'v1', from: 'the build' });
    expect(handle.describe()).toBe('ok');
  });

  it('collects the garbage once a rebuild is done, swapped in or not', async () => {
    const { handle } = await loaded((v) => plan(v, v === 'v3' ? { buildFile: () => Promise.reject(new Error('no')) } : {}));
    vi.mocked(collectGarbage).mockClear();
    await handle.rebuild('v2');
    expect(collectGarbage).not.toHaveBeenCalled();
    await new Promise((r) => setImmediate(r));
    expect(collectGarbage).toHaveBeenCalledTimes(1);
    await handle.rebuild('v3');
    await new Promise((r) => setImmediate(r));
    expect(collectGarbage).toHaveBeenCalledTimes(2);
  });
});

describe('builds at once', () => {
  it('give each build a file of its own, so two at once never read or remove each other\'s', async () => {
    const outs: string[] = [];
    const slow = (v: string) => plan(v, { buildFile: async (out) => { outs.push(out); await new Promise((r) => setTimeout(r, 20)); await writeFile(out, bytesOf({ version: v, from: v })); return []; } });
    const [a, b] = await Promise.all([loadBuiltIndex(source(() => slow('a')).spec).ready, loadBuiltIndex(source(() => slow('b')).spec).ready]);
    expect([a, b]).toEqual([{ version: 'a', from: 'a' }, { version: 'b', from: 'b' }]);
    expect(new Set(outs).size).toBe(2);
  });
});
