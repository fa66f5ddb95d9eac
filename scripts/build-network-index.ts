// Builds the per-network index (src/server/networks/) from the ASN index this build wrote
// and DB-IP City's place data into dist/data/network-index.bin, which the server loads at
// start instead of building it; and the sitemap of the largest networks' pages
// (dist/client/sitemap-networks.xml), added to the sitemap index. Run by `npm run build`
// (scripts/postbuild.mjs) after build-asn-index.ts, or directly: `node scripts/build-network-index.ts`.
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { AsnIndex, ASN_INDEX_FILE } from '../src/server/data/asn-index.ts';
import { dbipCityFiles } from '../src/server/data/sources.ts';
import { buildNetworkData } from '../src/server/networks/build.ts';
import { openPlaceReaders } from '../src/server/networks/build-input.ts';
import { encodeNetworkIndex, NETWORK_INDEX_FILE } from '../src/server/networks/index-file.ts';
import { networkDataVersion } from '../src/server/networks/load.ts';
import { NetworkIndex } from '../src/server/networks/network-index.ts';
import { NETWORK_SITEMAP, networkSitemap, withSitemap } from '../src/server/networks/sitemap.ts';

const started = performance.now();
const dist = path.resolve(process.env.DIST_DIR || 'dist');
const asn = AsnIndex.load(readFileSync(path.join(dist, ASN_INDEX_FILE)));
if (!asn) throw new Error(`${ASN_INDEX_FILE} is not a complete ASN index: run scripts/build-asn-index.ts first`);
const places = dbipCityFiles();
const data = buildNetworkData(asn, await openPlaceReaders(places), networkDataVersion(asn.version, places.version));
const bytes = encodeNetworkIndex(data);
const target = path.join(dist, NETWORK_INDEX_FILE);
mkdirSync(path.dirname(target), { recursive: true });
writeFileSync(target, bytes);
console.log(`network index: ${data.asns.length} networks, ${data.cityNames.length} cities, ${(bytes.length / 1048576).toFixed(1)} MiB `
  + `in ${Math.round(performance.now() - started)} ms -> ${path.relative(process.cwd(), target)}`);

// The same origin as astro.config.mjs's `site`.
const site = process.env.SITE_URL || 'http://localhost:4321';
const client = path.join(dist, 'client');
writeFileSync(path.join(client, NETWORK_SITEMAP), networkSitemap(new NetworkIndex(data), site));
const indexFile = path.join(client, 'sitemap-index.xml');
writeFileSync(indexFile, withSitemap(readFileSync(indexFile, 'utf8'), new URL(`/${NETWORK_SITEMAP}`, site).href));
console.log(`network sitemap: ${NETWORK_SITEMAP}, added to sitemap-index.xml`);
