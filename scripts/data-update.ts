// `npm run data:update`: fetches the Tor exit list, Apple's iCloud Private Relay ranges and
// newer @ip-location-db packages into DATA_DIR (src/server/data-update/update.ts says how).
// Run it from cron at least daily; a running server reloads the lists by itself and uses
// new packages after a restart. Exits 1 when any download failed (the old data stays).
// URLs: TOR_EXIT_LIST_URL, PRIVATE_RELAY_URL, and the npm registry from npm's own setting.
import { createRequire } from 'node:module';
import { loadConfig } from '../src/server/config.ts';
import { updateData } from '../src/server/data-update/update.ts';

const require = createRequire(import.meta.url);
const config = loadConfig();
const results = await updateData({
  dataDir: config.dataDir,
  lists: config.lists,
  urls: {
    tor: process.env.TOR_EXIT_LIST_URL || undefined,
    relay: process.env.PRIVATE_RELAY_URL || undefined,
    registry: process.env.npm_config_registry || undefined,
  },
  installedVersion: (name) => {
    try {
      return (require(`${name}/package.json`) as { version: string }).version;
    } catch {
      return undefined;
    }
  },
});
for (const r of results) console.log(`${r.outcome.padEnd(7)} ${r.name}: ${r.detail}`);
process.exitCode = results.some((r) => r.outcome === 'failed') ? 1 : 0;
