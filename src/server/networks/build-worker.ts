/**
 * Worker-thread entry: builds the network index off the main thread and hands its arrays
 * over without copying (their buffers are transferred), so the server answers other
 * requests while it builds. Started by src/server/networks/load.ts.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { AsnIndex } from '../lookup/asn-index.ts';
import { buildNetworkData } from './build.ts';
import { openPlaceReaders, type BuildInput } from './build-input.ts';
import { transferList } from './load.ts';

const input = workerData as BuildInput;
const asn = AsnIndex.load(input.asn);
if (!asn) throw new Error('the ASN index handed to the worker does not load');
const data = buildNetworkData(asn, await openPlaceReaders(input.places), input.version);
parentPort!.postMessage(data, transferList(data));
