/**
 * Worker-thread entry: compiles the ASN index from its CSV files (a newer package under
 * DATA_DIR, or a build's index that no longer matches) off the main thread, and hands back
 * its serialized form, which the main thread loads as it loads the built file. Compiled in
 * the server's own thread it stopped answers for seconds and left the CSV's strings in its
 * heap (bench/data-swap.mjs). Started by sources.ts.
 */
import { readFileSync } from 'node:fs';
import { parentPort, workerData } from 'node:worker_threads';
import { AsnIndex } from './asn-index.ts';

const files = workerData as { v4: string; v6: string; version: string };
const compiled = AsnIndex.compile(readFileSync(files.v4, 'utf8'), readFileSync(files.v6, 'utf8'), files.version).serialize();
// A copy of its own, so its buffer can be moved rather than copied again.
const bytes = new Uint8Array(compiled);
parentPort!.postMessage(bytes, [bytes.buffer]);
