/**
 * In-process harness: the real app (real databases, the real static build when present)
 * answering through `app.request()`, without a port. Tests of what only a socket shows
 * (timeouts, body streaming, raw headers, the page `/`) use http-harness.ts (beside this file) instead.
 * Each app gets its own empty DATA_DIR (its own analytics database) unless named.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { loadConfig } from '../../src/server/config.ts';
import type { AppListener } from '../../src/server/http/app.ts';
import { buildApp } from '../../src/server/server.ts';
import { OFFLINE_ENV } from './offline-env.ts';

/** Answers like fetch, in-process: `request(path, { method, headers, body, peer })`. */
export type AppRequestFn = AppListener['request'];

export async function createTestApp(env: Record<string, string> = {}): Promise<AppRequestFn> {
  const dataDir = env.DATA_DIR ?? mkdtempSync(path.join(tmpdir(), 'whatismyip-app-'));
  const { app } = await buildApp(loadConfig({ ...OFFLINE_ENV, DATA_DIR: dataDir, ...env }), 'dist');
  return app.request;
}
