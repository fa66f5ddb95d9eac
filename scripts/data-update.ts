// `npm run data:update`: fetches the public lists (the Tor exits, Apple's iCloud Private
// Relay ranges, X4BNet's VPN and datacenter ranges, the cloud providers' ranges) and newer
// @ip-location-db packages into DATA_DIR once (src/server/data-update/update.ts says how),
// for a server run with DATA_REFRESH=off; a running server reloads the lists by itself and
// opens new packages without a restart. Exits 1 when any download failed (the old data stays).
// URLs: each list's setting (src/server/data-update/list-sources.ts), NPM_REGISTRY_URL or
// npm's own registry setting.
import { loadConfig } from '../src/server/config.ts';
import { updateData } from '../src/server/data-update/update.ts';

const config = loadConfig();
const results = await updateData({
  dataDir: config.dataDir,
  lists: config.lists,
  urls: { ...config.refresh.urls, registry: process.env.NPM_REGISTRY_URL || process.env.npm_config_registry || config.refresh.urls.registry },
});
for (const r of results) console.log(`${r.outcome.padEnd(7)} ${r.name}: ${r.detail}`);
process.exitCode = results.some((r) => r.outcome === 'failed') ? 1 : 0;
