/**
 * Where the server keeps what it fetches and builds under DATA_DIR, in one place: the newer
 * data packages `npm run data:update` unpacks (`ip-location-db/<package>/`), the stamp file
 * running servers watch for them, the indexes built from them and kept for the next start,
 * the public lists (`lists/`) and the analytics database. Nothing else writes a path under
 * DATA_DIR (tests/architecture.test.ts checks no other module names these folders).
 */
import path from 'node:path';

/** The folder of the newer data packages, and of their check's state file. */
export const packagesDir = (dataDir: string): string => path.join(dataDir, 'ip-location-db');

/** A data package's newer copy: 'asn' or '@ip-location-db/asn' → DATA_DIR/ip-location-db/asn. */
export const packageDir = (dataDir: string, pkg: string): string => path.join(packagesDir(dataDir), pkg.split('/').at(-1)!);

/** The file rewritten after a newer package is unpacked: running servers then open it (lookup/engine-holder.ts). */
export const PACKAGES_STAMP = 'updated';
export const packagesStamp = (dataDir: string): string => path.join(packagesDir(dataDir), PACKAGES_STAMP);

/** An index built from the newer packages, kept beside them so that the next start reads it instead of building it. */
export const keptIndexFile = (dataDir: string, index: 'asn-index.bin' | 'network-index.bin'): string => path.join(packagesDir(dataDir), index);

/** The folder of the public lists (Tor exits, VPN and hosting ranges, ...) when no setting names another path. */
export const listsDir = (dataDir: string): string => path.join(dataDir, 'lists');

/** The analytics database's file name inside DATA_DIR (SQLite, when no DATABASE_URL is set). */
export const ANALYTICS_FILE = 'analytics.sqlite';
