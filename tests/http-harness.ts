/**
 * Integration harness: the real server (real databases, real static build when present)
 * built in-process and listening on a free loopback port.
 */
import type { AddressInfo } from 'node:net';
import { loadConfig } from '../src/server/config.ts';
import { createAppServer } from '../src/server/server.ts';

export interface TestServer { url: string; close: () => Promise<void> }

export async function startTestServer(env: Record<string, string> = {}): Promise<TestServer> {
  const config = loadConfig({ HOST: '127.0.0.1', PORT: '0', ...env });
  const { server } = await createAppServer(config, 'dist');
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    close: () => new Promise((resolve) => { server.closeAllConnections(); server.close(() => resolve()); }),
  };
}
