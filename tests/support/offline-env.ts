/**
 * The one set of settings that keeps a test server on this machine, shared by every harness
 * (app-harness.ts, http-harness.ts, browser-harness.ts, beside this file): it listens on
 * loopback only, on a port the system picks; it asks no resolver for reverse names; and the
 * data refresher, which is what fetches from outside (databases and privacy lists), is off. A
 * test of one of these turns it back on itself, pointing it at a local server (the refresher:
 * fixture-server.ts; reverse DNS: dns-server.ts).
 */
export const OFFLINE_ENV: Readonly<Record<string, string>> = {
  HOST: '127.0.0.1',
  PORT: '0',
  REVERSE_DNS: 'off',
  DATA_REFRESH: 'off',
};
