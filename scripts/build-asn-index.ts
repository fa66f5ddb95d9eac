// Compiles the @ip-location-db/asn CSV into the binary ASN index the engine loads at start
// (dist/data/asn-index.bin), so the server never parses 45 MB of CSV when it boots.
// Run by `npm run build` (scripts/postbuild.mjs) or directly: `node scripts/build-asn-index.ts`.
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { AsnIndex, ASN_INDEX_FILE } from '../src/server/data/asn-index.ts';

const started = performance.now();
const index = AsnIndex.compileFromPackage();
const target = path.resolve(process.env.DIST_DIR || 'dist', ASN_INDEX_FILE);
mkdirSync(path.dirname(target), { recursive: true });
const bytes = index.serialize();
writeFileSync(target, bytes);
console.log(`asn index: ${index.v4Count} IPv4 + ${index.v6Count} IPv6 ranges, ${index.orgs.length} organisations, `
  + `${(bytes.length / 1048576).toFixed(1)} MiB in ${Math.round(performance.now() - started)} ms -> ${path.relative(process.cwd(), target)}`);
