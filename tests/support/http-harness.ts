/**
 * Integration harness: the real server (real databases, real static build when present)
 * built in-process and listening on a free loopback port. Each server gets its own empty
 * DATA_DIR (its own analytics database) unless the caller names one.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { loadConfig } from '../../src/server/config.ts';
import { createAppServer, type ServerLimits } from '../../src/server/server.ts';
import type { Routes } from '../../src/server/routes.ts';
import { OFFLINE_ENV } from './offline-env.ts';

export interface TestServer { url: string; routes: Routes; dataDir: string; close: () => Promise<void> }

/** `limits`: the server's time limits, production's unless given (a test of a timeout passes short ones). */
export async function startTestServer(env: Record<string, string> = {}, limits: Partial<ServerLimits> = {}): Promise<TestServer> {
  const dataDir = env.DATA_DIR ? undefined : mkdtempSync(path.join(tmpdir(), 'whatismyip-test-'));
  const config = loadConfig({ ...OFFLINE_ENV, ...(dataDir ? { DATA_DIR: dataDir } : {}), ...env });
  const { server, routes } = await createAppServer(config, 'dist', limits);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    routes,
    dataDir: config.dataDir,
    close: async () => {
      await new Promise<void>((resolve) => { server.closeAllConnections(); server.close(() => resolve()); });
      await routes.analytics.close();
      if (dataDir) rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
