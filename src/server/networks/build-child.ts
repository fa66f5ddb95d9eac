/**
 * Child-process entry: builds the network index from the data the engine reads now (the
 * ASN index as sources.ts opens it, DB-IP City's files) and writes it in the form
 * `npm run build` writes (index-file.ts), which the server then loads and swaps in whole
 * (load.ts, after newer data packages were swapped into the engine). A process of its own,
 * so the build's garbage leaves with it (utils/child-task.ts).
 *
 * Argument: one JSON object, a NetworkRebuildSpec with the file to write as `out`.
 */
import { childTask, writeBeside } from '../utils/child-task.ts';
import { openAsnIndex } from '../lookup/sources.ts';
import { buildNetworkData } from './build.ts';
import { openPlaceReaders } from './build-input.ts';
import { encodeNetworkIndex } from './index-file.ts';
import { networkDataVersion, placeFiles, type NetworkRebuildSpec } from './load.ts';

await childTask(async () => {
  const spec = JSON.parse(process.argv[2]!) as NetworkRebuildSpec & { out: string };
  const asn = await openAsnIndex(spec.distDir, spec.asnIndex, spec.dataDir);
  if (asn instanceof Error) throw asn;
  const places = placeFiles(spec);
  const data = buildNetworkData(asn, await openPlaceReaders(places), networkDataVersion(asn.version, places?.version ?? 'none'));
  writeBeside(spec.out, encodeNetworkIndex(data));
});
