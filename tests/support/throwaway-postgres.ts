/**
 * A PostgreSQL cluster of the test's own, in a temporary directory on a free port, that
 * the test may stop and start (the shared server on 5432 must never be stopped: other
 * tests use it). Uses the installed server binaries (`/usr/lib/postgresql/N/bin`); run as
 * root (CI), the cluster runs as the `postgres` user. Without the binaries the cases skip
 * locally and fail under CI (support/required-service.ts).
 */
import { execFile } from 'node:child_process';
import { chownSync, existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir, userInfo } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { requiredService, type RequiredService } from './required-service.ts';

const run = promisify(execFile);

export interface ThrowawayPostgres {
  /** postgres://postgres@127.0.0.1:PORT/postgres */
  url: string;
  stop(): Promise<void>;
  start(): Promise<void>;
  /** Stops the cluster and removes its directory. */
  destroy(): Promise<void>;
}

/** The newest installed server's bin directory, or undefined. */
function binDir(): string | undefined {
  const root = '/usr/lib/postgresql';
  if (!existsSync(root)) return undefined;
  const versions = readdirSync(root).filter((v) => existsSync(path.join(root, v, 'bin', 'initdb'))).sort((a, b) => Number(b) - Number(a));
  return versions[0] && path.join(root, versions[0], 'bin');
}

const freePort = () => new Promise<number>((resolve, reject) => {
  const s = createServer().listen(0, '127.0.0.1', () => {
    const { port } = s.address() as { port: number };
    s.close(() => resolve(port));
  }).on('error', reject);
});

/** The gate of the cases that need a throwaway cluster: `skip` them, or `get()` the server's bin directory. */
export const throwawayPostgres = (): RequiredService<string> =>
  requiredService(binDir(), 'No PostgreSQL server binaries (initdb, pg_ctl) under /usr/lib/postgresql');

/** Creates and starts a cluster from the binaries in `bin` (`throwawayPostgres().get()`); call destroy() when done. */
export async function startThrowawayPostgres(bin: string): Promise<ThrowawayPostgres> {
  const root = userInfo().uid === 0;
  const dir = mkdtempSync(path.join(tmpdir(), 'pg-throwaway-'));
  const data = path.join(dir, 'data');
  if (root) {
    const { stdout } = await run('id', ['-u', 'postgres']);
    const { stdout: gid } = await run('id', ['-g', 'postgres']);
    chownSync(dir, Number(stdout), Number(gid));
  }
  // Root may not run the server: run its tools as the postgres user.
  const tool = (name: string, args: string[]) => root
    ? run('runuser', ['-u', 'postgres', '--', path.join(bin, name), ...args], { timeout: 60_000 })
    : run(path.join(bin, name), args, { timeout: 60_000 });
  const port = await freePort();
  await tool('initdb', ['-D', data, '-A', 'trust', '-U', 'postgres', '--no-sync', '-E', 'UTF8']);
  const options = `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c fsync=off`;
  const start = async () => { await tool('pg_ctl', ['-D', data, '-l', path.join(dir, 'log'), '-o', options, '-w', 'start']); };
  const stop = async () => { await tool('pg_ctl', ['-D', data, '-m', 'fast', '-w', 'stop']); };
  await start();
  return {
    url: `postgres://postgres@127.0.0.1:${port}/postgres`,
    start,
    stop,
    destroy: async () => {
      await stop().catch(() => undefined);
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
