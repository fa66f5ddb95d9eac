// After `astro build`: the islands' bundle, the data indexes the server loads at start
// (ASN, networks with their sitemap, city search), then every text asset precompressed
// (brotli and gzip) so the server never compresses a file per request; last, so that the
// files the steps before wrote into dist/client (sitemap-networks.xml) are compressed too.
import { readdirSync, readFileSync, writeFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { brotliCompressSync, gzipSync, constants } from 'node:zlib';

const CLIENT = path.resolve('dist/client');
const COMPRESSIBLE = /\.(html|js|mjs|css|svg|json|xml|txt|webmanifest|map)$/;
const MIN_BYTES = 512;

const walk = (dir) => readdirSync(dir, { recursive: true, withFileTypes: true })
  .filter((entry) => entry.isFile()).map((entry) => path.join(entry.parentPath, entry.name));

await (await import('./build-islands.mjs')).buildIslands(); // the islands the `/` shell renders per visitor
await import('./build-asn-index.ts'); // the ASN index the lookup engine loads at start
await import('./build-network-index.ts'); // the per-network index behind /AS{n}, and its sitemap (needs the ASN index)
await import('./build-city-index.ts'); // the city search index the server loads at start

let count = 0;
let before = 0;
let after = 0;
for (const file of walk(CLIENT)) {
  if (!COMPRESSIBLE.test(file) || statSync(file).size < MIN_BYTES) continue;
  const body = readFileSync(file);
  const br = brotliCompressSync(body, { params: { [constants.BROTLI_PARAM_QUALITY]: 11, [constants.BROTLI_PARAM_SIZE_HINT]: body.length } });
  const gz = gzipSync(body, { level: 9 });
  writeFileSync(file + '.br', br);
  writeFileSync(file + '.gz', gz);
  count++;
  before += body.length;
  after += br.length;
}
console.log(`postbuild: precompressed ${count} files, ${(before / 1024).toFixed(0)} KiB -> ${(after / 1024).toFixed(0)} KiB brotli`);
