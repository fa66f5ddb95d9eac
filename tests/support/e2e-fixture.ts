/**
 * Vitest's global setup for the browser tests (vitest.e2e.config.ts, after temp-root.ts): one
 * built server and one Chromium for the whole run, instead of one of each per file. The files
 * that need only the default server take it with `sharedServer()`; every `launchBrowser()`
 * (browser-harness.ts, beside this file) connects to the one Chromium, so a file's
 * `browser.close()` closes its own contexts and leaves the browser to the next file. Files that
 * need a server of their own (other settings, a fresh analytics database, its output or its
 * process) still start one with `startServer()`.
 *
 * The shared server trusts its loopback proxy (TRUST_PROXY=loopback), as most files asked
 * for, so a test can be 8.8.8.8 with an x-forwarded-for header. Its rate limits are set out
 * of reach: the files that share it all visit from 8.8.8.8 and loopback within minutes of
 * each other, and what one file sent must not answer another's page with 429.
 */
import { chromium, type BrowserServer } from 'playwright-core';
import { BROWSER_ENDPOINT, browserLaunchOptions, startServer, type RunningServer } from './browser-harness.ts';

/** Where the workers find the shared server and browser: in the environment they inherit. */
const SERVER_URL = 'E2E_SHARED_SERVER_URL';

export const SHARED_SERVER_ENV = { TRUST_PROXY: 'loopback', RATE_LIMIT: '1000000', PAGE_RATE_LIMIT: '1000000' };

export interface SharedServer { url: string }

/** The run's shared default server (SHARED_SERVER_ENV); only under vitest.e2e.config.ts. */
export function sharedServer(): SharedServer {
  const url = process.env[SERVER_URL];
  if (!url) throw new Error(`no shared server: run this file with --config vitest.e2e.config.ts (its global setup starts it)`);
  return { url };
}

export default async function setup(): Promise<() => Promise<void>> {
  const [started, launched] = await Promise.allSettled([startServer(SHARED_SERVER_ENV), chromium.launchServer(browserLaunchOptions())]);
  if (started.status === 'rejected' || launched.status === 'rejected') {
    // Neither is of use without the other: stop the one that started, report the one that did not.
    if (started.status === 'fulfilled') await started.value.stop();
    if (launched.status === 'fulfilled') await launched.value.close();
    throw started.status === 'rejected' ? started.reason : (launched as PromiseRejectedResult).reason;
  }
  const server: RunningServer = started.value;
  const browser: BrowserServer = launched.value;
  process.env[SERVER_URL] = server.url;
  process.env[BROWSER_ENDPOINT] = browser.wsEndpoint();
  return async () => {
    delete process.env[SERVER_URL];
    delete process.env[BROWSER_ENDPOINT];
    // A server that died mid-run explains every later failure: show what it said.
    if (server.process.exitCode !== null) console.error(`shared server exited early:\n${server.output()}`);
    await Promise.all([browser.close(), server.stop()]);
  };
}
