/**
 * Child-process entry: builds the network index and writes it in the form `npm run build`
 * writes (index-file.ts), which the server then loads and swaps in whole (load.ts). Built
 * for the engine's own ASN index (its bytes in a file) at start, or, after newer data was
 * swapped into the engine, from the data as the engine opens it (the ASN index as
 * sources.ts opens it, DB-IP City's files). A process of its own, so the build's garbage
 * leaves with it (utils/child-task.ts).
 *
 * Argument: one JSON object, a NetworkBuildInput.
 */
import { readFileSync } from 'node:fs';
import { childTask, writeBeside } from '../utils/child-task.ts';
import { AsnIndex } from '../data/asn-index.ts';
import { openAsnIndex } from '../data/sources.ts';
import { buildNetworkData } from './build.ts';
import { openPlaceReaders } from './build-input.ts';
import { encodeNetworkIndex } from './index-file.ts';
import { placeFiles, type NetworkBuildInput } from './load.ts';

await childTask(async () => {
  const input = JSON.parse(process.argv[2]!) as NetworkBuildInput;
  let asn: AsnIndex | Error | undefined;
  let places: { v4: string; v6: string } | undefined;
  if ('asnFile' in input) {
    asn = AsnIndex.load(readFileSync(input.asnFile)) ?? new Error('the ASN index handed to the build does not load');
    places = input.places;
  } else {
    asn = await openAsnIndex(input.spec.distDir, input.spec.asnIndex, input.spec.dataDir);
    places = placeFiles(input.spec);
  }
  if (asn instanceof Error) throw asn;
  writeBeside(input.out, encodeNetworkIndex(buildNetworkData(asn, await openPlaceReaders(places), input.version)));
});
