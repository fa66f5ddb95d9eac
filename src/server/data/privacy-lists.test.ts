import { chmodSync, mkdirSync, mkdtempSync, renameSync, rmSync, statSync, unwatchFile, utimesSync, watchFile, writeFileSync, type Stats } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { parseIp } from '../../lib/ip-address.ts';
import type { PrivacyFlag } from '../../lib/privacy.ts';
import { defaultListPaths, PrivacyLists, sourcesOf, type ListOptions, type ListPaths } from './privacy-lists.ts';
import { toWords } from './sorted-ranges.ts';

const made: string[] = [];
afterAll(() => { for (const dir of made) rmSync(dir, { recursive: true, force: true }); });

/** Lists files in a fresh data folder (the others missing), each dated `date` when given. */
function listFiles(files: Partial<Record<PrivacyFlag, string>>, date?: string): ListPaths {
  const dir = mkdtempSync(path.join(tmpdir(), 'privacy-lists-'));
  made.push(dir);
  const paths = defaultListPaths(dir);
  mkdirSync(path.dirname(paths.tor), { recursive: true });
  for (const [kind, text] of Object.entries(files)) {
    writeFileSync(paths[kind as PrivacyFlag], text);
    if (date) utimesSync(paths[kind as PrivacyFlag], new Date(date), new Date(date));
  }
  return paths;
}

async function openLists(files: Partial<Record<PrivacyFlag, string>>, options: ListOptions & { date?: string } = {}) {
  const paths = listFiles(files, options.date);
  const logs: string[] = [];
  const lists = await PrivacyLists.open(paths, { log: (line) => logs.push(line), ...options });
  return { lists, logs, paths };
}

function ask(lists: PrivacyLists, ip: string) {
  const parsed = parseIp(ip)!;
  return lists.check(parsed, parsed.version === 6 ? toWords(parsed.value, new Uint32Array(4)) : new Uint32Array(4));
}

const T1 = '2026-11-26T10:00:00.000Z';
const T2 = '2026-11-25T08:30:00.000Z';

describe('defaultListPaths', () => {
  it('puts every list under lists/ in the data folder, by its file name', () => {
    expect(defaultListPaths('/srv/data')).toEqual({
      tor: '/srv/data/lists/tor-exits.txt', relay: '/srv/data/lists/private-relay.csv', vpn: '/srv/data/lists/vpn.txt',
      proxy: '/srv/data/lists/proxy.txt', hosting: '/srv/data/lists/hosting.txt',
    });
  });
});

describe('sourcesOf: the `# source` lines of a list file', () => {
  it.each<[string, string, ReturnType<typeof sourcesOf>]>([
    ['none', '185.220.101.1\n# a comment\n', []],
    ['one, without a service', `# source tor fetched ${T1}: the Tor Project's exit list\n185.220.101.1\n`,
      [{ id: 'tor', fetchedAt: Date.parse(T1), service: '', name: "the Tor Project's exit list" }]],
    ['one with a service, its name trimmed', `# source aws fetched ${T1} as AWS:  AWS's published ranges \t\r\n3.5.140.0/22,AWS\r\n`,
      [{ id: 'aws', fetchedAt: Date.parse(T1), service: 'AWS', name: "AWS's published ranges" }]],
    ['two in order, one with a date that is not one left out',
      `# source aws fetched ${T1} as AWS: AWS's\n# source bad fetched yesterday: Bad\n# source x4bnet-datacenter fetched ${T2}: X4BNet's\n`,
      [{ id: 'aws', fetchedAt: Date.parse(T1), service: 'AWS', name: "AWS's" }, { id: 'x4bnet-datacenter', fetchedAt: Date.parse(T2), service: '', name: "X4BNet's" }]],
  ])('%s', (_name, text, sources) => {
    expect(sourcesOf(text)).toEqual(sources);
  });
});

/**
 * A hosting list from two sources: a provider's /15 inside X4BNet's unnamed /8, fetched at
 * different times; a comment after a row that reads like a header is no header.
 */
const TWO_SOURCES = [
  `# source aws fetched ${T1} as AWS: AWS's published ranges`, '3.0.0.0/15,AWS', '52.95.245.0/24,AWS # source of this row: the API', '2600:1f14::/35,AWS',
  `# source x4bnet-datacenter fetched ${T2}: X4BNet's datacenter list`, '3.0.0.0/8', '5.9.0.0/16', '',
].join('\n');

describe('check: which list holds an address, with its service and source', () => {
  it('names the first source whose section holds the address, even inside a wider range of a later one', async () => {
    const { lists } = await openLists({ hosting: TWO_SOURCES });
    const aws = { listed: true, service: 'AWS', source: "AWS's published ranges", fetchedAt: Date.parse(T1) };
    const x4b = { listed: true, service: '', source: "X4BNet's datacenter list", fetchedAt: Date.parse(T2) };
    expect(ask(lists, '3.0.0.0').hosting).toMatchObject(aws);
    expect(ask(lists, '3.1.255.255').hosting).toMatchObject(aws);
    expect(ask(lists, '2600:1f14::1').hosting).toMatchObject(aws);
    expect(ask(lists, '3.2.0.0').hosting).toMatchObject(x4b);
    expect(ask(lists, '3.255.255.255').hosting).toMatchObject(x4b);
    expect(ask(lists, '5.9.1.1').hosting).toMatchObject(x4b);
  });

  it('names no source for a row above the first header of a file from several sources', async () => {
    const { lists } = await openLists({ hosting: `198.51.100.0/24,Hand-added\n${TWO_SOURCES}` });
    expect(ask(lists, '198.51.100.1').hosting).toMatchObject({ listed: true, service: 'Hand-added', source: undefined, fetchedAt: undefined });
    expect(ask(lists, '3.0.0.1').hosting).toMatchObject({ service: 'AWS', source: "AWS's published ranges" });
  });

  it("answers a miss with every source named together and the oldest one's fetch time", async () => {
    const { lists } = await openLists({ hosting: TWO_SOURCES, tor: `# source tor fetched ${T1}: the Tor Project's exit list\n185.220.101.1\n` });
    const miss = ask(lists, '192.0.2.1');
    expect(miss.hosting).toMatchObject({ listed: false, service: '', source: "AWS's published ranges and 1 more", fetchedAt: Date.parse(T2) });
    expect(miss.tor).toMatchObject({ listed: false, service: '', source: "the Tor Project's exit list", fetchedAt: Date.parse(T1) });
  });

  it('names the one source of a file for every row, those above its header line included', async () => {
    const { lists } = await openLists({ vpn: `45.83.88.0/22,ExampleVPN\n# source x4bnet-vpn fetched ${T1}: X4BNet's VPN list\n45.83.220.0/22\n` });
    const from = { source: "X4BNet's VPN list", fetchedAt: Date.parse(T1) };
    expect(ask(lists, '45.83.88.1').vpn).toEqual({ listed: true, service: 'ExampleVPN', updated: expect.any(String), ...from });
    expect(ask(lists, '45.83.220.1').vpn).toEqual({ listed: true, service: '', updated: expect.any(String), ...from });
    expect(ask(lists, '192.0.2.1').vpn).toMatchObject({ listed: false, ...from });
  });

  it('names no source for a file without a `# source` line', async () => {
    const { lists } = await openLists({ tor: '185.220.101.1\n' }, { date: '2026-11-20T12:00:00Z' });
    expect(ask(lists, '185.220.101.1').tor).toEqual({ listed: true, service: '', updated: '2026-11-20', source: undefined, fetchedAt: undefined });
    expect(ask(lists, '185.220.101.2').tor).toEqual({ listed: false, service: '', updated: '2026-11-20', source: undefined, fetchedAt: undefined });
  });

  it('finds the first range of a list, in either family, and an address on two lists on both', async () => {
    const { lists } = await openLists({ tor: '2001:db8::/32\n', vpn: '192.0.2.0/24,ExampleVPN\n198.51.100.0/24,OtherVPN\n', proxy: '192.0.2.7\n' });
    expect(ask(lists, '2001:db8::1').tor?.listed).toBe(true);
    expect(ask(lists, '2001:db9::1').tor?.listed).toBe(false);
    const both = ask(lists, '192.0.2.7');
    expect([both.vpn?.listed, both.vpn?.service, both.proxy?.listed, both.tor?.listed]).toEqual([true, 'ExampleVPN', true, false]);
    expect(ask(lists, '198.51.100.1').vpn?.service).toBe('OtherVPN');
  });

  it('answers a clean address with the one frozen miss of the generation, and a new one after a change', async () => {
    const { lists, paths } = await openLists({ tor: '185.220.101.1\n', vpn: '45.83.88.0/22\n' });
    const missed = lists.missed();
    expect(Object.isFrozen(missed) && Object.isFrozen(missed.tor)).toBe(true);
    expect(Object.keys(missed).sort()).toEqual(['tor', 'vpn']);
    expect(ask(lists, '192.0.2.1')).toBe(missed);
    expect(lists.missed()).toBe(missed);
    const hit = ask(lists, '185.220.101.1');
    expect(hit).not.toBe(missed);
    expect(hit.vpn).toBe(missed.vpn);
    writeFileSync(paths.tor, '185.220.101.2\n');
    await lists.refresh('tor');
    expect(lists.missed()).not.toBe(missed);
    expect(ask(lists, '185.220.101.1')).toBe(lists.missed());
  });
});

describe('coverage: how much of a network each list holds', () => {
  it('counts IPv4 addresses and IPv6 /48s over every range given, per loaded list', async () => {
    const { lists } = await openLists({ tor: '192.0.2.0/25\n198.51.100.0/30\n2001:db8::/47\n2001:db9::/48\n', hosting: '203.0.113.0/24\n' }, { date: '2026-11-20T12:00:00Z' });
    const v4 = (ip: string) => (parseIp(ip) as { value: number }).value;
    const ranges4 = Uint32Array.from([v4('192.0.2.0'), v4('192.0.2.255'), v4('198.51.100.0'), v4('198.51.100.255')]);
    const ranges6 = new Uint32Array(16);
    const v6 = (ip: string, at: number) => toWords((parseIp(ip) as { value: bigint }).value, ranges6.subarray(at, at + 4));
    v6('2001:db8::', 0); v6('2001:db8:3:ffff:ffff:ffff:ffff:ffff', 4); v6('2001:db9::', 8); v6('2001:db9:0:ffff:ffff:ffff:ffff:ffff', 12);
    expect(lists.coverage(ranges4, ranges6)).toEqual({
      tor: { v4: 132, v6: 3, updated: '2026-11-20' },
      hosting: { v4: 0, v6: 0, updated: '2026-11-20' },
    });
  });
});

describe('summary and states (what /healthz says)', () => {
  it("counts each loaded list's ranges of both families, with its file's date, and says which are not loaded", async () => {
    const { lists, paths } = await openLists({ tor: '185.220.101.1\n185.220.101.3\n2001:67c:e60::/48\n' }, { date: '2026-11-20T12:00:00Z' });
    expect(lists.summary()).toEqual({ tor: 3 });
    expect(lists.states()).toEqual([
      ['tor list', 'ok (3 ranges, file of 2026-11-20)'],
      ['relay list', `not loaded (no ${path.basename(paths.relay)}): its check says "not available"`],
      ['vpn list', `not loaded (no ${path.basename(paths.vpn)}): its check says "not available"`],
      ['proxy list', `not loaded (no ${path.basename(paths.proxy)}): its check says "not available"`],
      ['hosting list', `not loaded (no ${path.basename(paths.hosting)}): its check says "not available"`],
    ]);
  });
});

describe('loading and reloading, and what is logged', () => {
  it('logs the lists it could not load at start, once, and nothing when all are there', async () => {
    const { logs, paths } = await openLists({ tor: '185.220.101.1\n', relay: '172.224.224.0/27\n', vpn: '45.83.88.0/22\n' });
    expect(logs).toEqual([`not loaded (their checks say "not available"): ${paths.proxy}, ${paths.hosting}; the refresher (or npm run data:update) fetches the public ones`]);
    const all = await openLists({ tor: '1.1.1.1\n', relay: '1.1.1.1\n', vpn: '1.1.1.1\n', proxy: '1.1.1.1\n', hosting: '1.1.1.1\n' });
    expect(all.logs).toEqual([]);
  });

  it('logs the lines that are not addresses, with the first, and each reload', async () => {
    const { lists, logs, paths } = await openLists({ tor: '185.220.101.1\nnot an address\n<div>\n', relay: '', vpn: '', proxy: '', hosting: '' });
    expect(logs).toEqual([`${paths.tor}: skipped 2 lines that are not addresses (first: "not an address")`]);
    writeFileSync(paths.vpn, '45.83.88.0/22\n2001:ac8::/32\n');
    await lists.refresh('vpn');
    expect(logs.slice(1)).toEqual([`${paths.vpn}: reloaded, 2 ranges`]);
  });

  it("logs through console.warn, marked as the lists', when no log is given", async () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    try {
      const paths = listFiles({ tor: '185.220.101.1\nnonsense\n', relay: '', vpn: '', proxy: '', hosting: '' });
      await PrivacyLists.open(paths);
      expect(warn.mock.calls).toEqual([[`lists: ${paths.tor}: skipped 1 lines that are not addresses (first: "nonsense")`]]);
    } finally {
      warn.mockRestore();
    }
  });

  it('drops a list whose file is gone, once, and does nothing for one that was never there', async () => {
    const { lists, logs, paths } = await openLists({ tor: '185.220.101.1\n' });
    logs.length = 0;
    const before = lists.generation;
    await lists.refresh('proxy');
    expect([lists.generation, logs]).toEqual([before, []]);
    rmSync(paths.tor);
    await lists.refresh('tor');
    expect(lists.generation).toBe(before + 1);
    expect(ask(lists, '185.220.101.1').tor).toBeUndefined();
    await lists.refresh('tor');
    expect(lists.generation).toBe(before + 1);
    expect(logs).toEqual([`${paths.tor} is gone: the tor check is not available until it is back`]);
  });

  it('keeps the list it has when its file cannot be read for another reason than being gone', async () => {
    const { lists, logs, paths } = await openLists({ tor: '185.220.101.1\n' });
    logs.length = 0;
    const before = lists.generation;
    rmSync(paths.tor);
    mkdirSync(paths.tor);
    await lists.refresh('tor');
    expect(ask(lists, '185.220.101.1').tor?.listed).toBe(true);
    expect(lists.generation).toBe(before);
    expect(logs).toEqual([expect.stringMatching(new RegExp(`^${paths.tor} could not be read \\(EISDIR.*\\); keeping what was loaded$`))]);
  });
});

describe('polling the files', () => {
  const POLL = 20;
  const D1 = new Date('2026-11-20T12:00:00Z');
  const D2 = new Date('2026-11-21T12:00:00Z');

  /** Whether `done` holds within `ms`, asked every 10 ms. */
  async function within(done: () => boolean, ms: number): Promise<boolean> {
    const end = Date.now() + ms;
    while (!done()) {
      if (Date.now() > end) return false;
      await new Promise((r) => setTimeout(r, 10));
    }
    return true;
  }

  function until(done: () => boolean, what: string): Promise<void> {
    return vi.waitFor(() => { if (!done()) throw new Error(`timed out waiting for ${what}`); }, { timeout: 5000, interval: 10 });
  }

  /**
   * Every change the poll of `file` reports, with the lists' generation when it came: a
   * listener added to the lists' own poll of the file (node keeps one per file), so it
   * hears each change in the same turn, just after the lists' listener.
   */
  function observe(file: string, lists: PrivacyLists) {
    const seen: Array<{ now: Stats; generation: number }> = [];
    const listener = (now: Stats) => { seen.push({ now, generation: lists.generation }); };
    watchFile(file, { interval: POLL, persistent: false }, listener);
    return {
      seen,
      stop: () => unwatchFile(file, listener),
      saw: (check: (now: Stats) => boolean) => until(() => seen.some((e) => check(e.now)), 'the poll to see the change'),
    };
  }

  /** Replaces a file by a rename, as the refresher does, the new one dated `date`. */
  function replace(file: string, text: string, date: Date): number {
    writeFileSync(`${file}.new`, text);
    utimesSync(`${file}.new`, date, date);
    renameSync(`${file}.new`, file);
    return statSync(file).ino;
  }

  // Each change is made again, a little otherwise, until the poll reloads the file: node's
  // poll takes its first look at the file when it can, and a change made before that look
  // is its starting point, not a change. Each attempt differs from the last
  // in the one way the case names; the change returns how many ranges the file then has.
  it.each<[string, (file: string, attempt: number) => number]>([
    ['rewritten in place with the same size (only its time changes)', (file, attempt) => {
      writeFileSync(file, '185.220.101.2\n');
      const date = new Date(D2.getTime() + attempt * 1000);
      utimesSync(file, date, date);
      return 1;
    }],
    ['rewritten in place keeping its time (cp -p: only its size changes)', (file, attempt) => {
      const ranges = 2 + attempt;
      writeFileSync(file, ['185.220.101.2', ...Array.from({ length: ranges - 1 }, (_, i) => `185.220.102.${i + 1}`)].join('\n') + '\n');
      utimesSync(file, D1, D1);
      return ranges;
    }],
    ['replaced by a rename with the same size and time (only its inode changes)', (file) => { replace(file, '185.220.101.2\n', D1); return 1; }],
  ])('reloads a file %s, and logs it', async (_name, change) => {
    const { lists, logs, paths } = await openLists({ tor: '185.220.101.1\n' }, { pollMs: POLL, date: D1.toISOString() });
    try {
      let ranges = 0;
      const reloaded = () => ask(lists, '185.220.101.2').tor?.listed === true;
      for (let attempt = 0; attempt < 5 && !reloaded(); attempt++) {
        ranges = change(paths.tor, attempt);
        await within(reloaded, 1000);
      }
      await until(reloaded, 'the reload');
      expect(ask(lists, '185.220.101.1').tor?.listed).toBe(false);
      expect(logs.at(-1)).toBe(`${paths.tor}: reloaded, ${ranges} ranges`);
    } finally {
      lists.close();
    }
  });

  it('does not read again a file it read when asked to', async () => {
    const { lists, logs, paths } = await openLists({ tor: '185.220.101.1\n' }, { pollMs: POLL });
    const observer = observe(paths.tor, lists);
    try {
      // The poll may see the new file before refresh() has read it (then reading it is right):
      // try again until it came after.
      for (let attempt = 0; ; attempt++) {
        const before = lists.generation;
        const logged = logs.length;
        const ino = replace(paths.tor, `185.220.101.${10 + attempt}\n`, new Date(D2.getTime() + attempt * 1000));
        await lists.refresh('tor');
        await observer.saw((now) => now.ino === ino);
        if (observer.seen.find((e) => e.now.ino === ino)!.generation === before + 1) {
          // A read the poll started is logged before this refresh's, which starts after it.
          await lists.refresh('tor');
          expect(logs.slice(logged)).toEqual([`${paths.tor}: reloaded, 1 ranges`, `${paths.tor}: reloaded, 1 ranges`]);
          break;
        }
        if (attempt === 4) throw new Error('the poll saw the file before refresh() read it, five times in a row');
      }
    } finally {
      observer.stop();
      lists.close();
    }
  });

  it('does not read again a path that cannot be read when only its mode changes', async () => {
    const { lists, logs, paths } = await openLists({ tor: '185.220.101.1\n' }, { pollMs: POLL });
    const observer = observe(paths.tor, lists);
    const unreadable = () => logs.filter((l) => l.includes('could not be read')).length;
    try {
      rmSync(paths.tor);
      mkdirSync(paths.tor, { mode: 0o755 });
      await until(() => unreadable() === 1, 'the read error');
      chmodSync(paths.tor, 0o700);
      await observer.saw((now) => (now.mode & 0o777) === 0o700);
      // A read the poll started is logged before this one, which starts after it.
      await lists.refresh('tor');
      expect(unreadable()).toBe(2);
    } finally {
      observer.stop();
      lists.close();
    }
  });

  it('never keeps the process alive by watching', async () => {
    const { lists } = await openLists({ tor: '185.220.101.1\n' }, { pollMs: POLL });
    try {
      expect(process.getActiveResourcesInfo()).not.toContain('StatWatcher');
    } finally {
      lists.close();
    }
  });

  /**
   * Replaces the tor list on disk while a poll of the test's own hears it (node's first stat of
   * a file may already see a change made at once: it is replaced until the poll reports one),
   * then has the lists read another file: a read a poll of their own started ends before that one.
   */
  async function changeBehindTheirBack(lists: PrivacyLists, paths: ListPaths): Promise<void> {
    const observer = observe(paths.tor, lists);
    try {
      let seen = false;
      for (let attempt = 0; !seen; attempt++) {
        if (attempt === 10) throw new Error('the poll never reported a change');
        const ino = replace(paths.tor, `185.220.101.${2 + attempt}\n`, D2);
        seen = await within(() => observer.seen.some((e) => e.now.ino === ino), 500);
      }
      await lists.refresh('vpn');
    } finally {
      observer.stop();
    }
  }

  it('stops reading changed files once closed', async () => {
    const { lists, paths } = await openLists({ tor: '185.220.101.1\n', vpn: '45.83.88.0/22\n' }, { pollMs: POLL });
    lists.close();
    const before = lists.generation;
    await changeBehindTheirBack(lists, paths);
    expect(lists.generation).toBe(before + 1);
    expect(ask(lists, '185.220.101.1').tor?.listed).toBe(true);
  });

  it('never polls with a poll interval of 0', async () => {
    const { lists, paths } = await openLists({ tor: '185.220.101.1\n', vpn: '45.83.88.0/22\n' }, { pollMs: 0 });
    const before = lists.generation;
    await changeBehindTheirBack(lists, paths);
    expect(lists.generation).toBe(before + 1);
    expect(ask(lists, '185.220.101.1').tor?.listed).toBe(true);
  });
});
