/**
 * Child-process entry: compiles the ASN index from its CSV files (a newer package under
 * DATA_DIR, or the installed one when the build's index no longer matches) and writes its
 * serialized form to a file, which the server then loads as it loads the built one. Run in
 * a process of its own, not a thread of the server's: the CSV's strings and the compile's
 * garbage leave with the process instead of staying in the server's heap and malloc arenas
 * (bench/data-swap.mjs). Started by sources.ts (runChildTask).
 *
 * Arguments: the IPv4 CSV, the IPv6 CSV, the data version, the file to write.
 */
import { readFileSync } from 'node:fs';
import { childTask, writeBeside } from '../utils/child-task.ts';
import { AsnIndex } from './asn-index.ts';

await childTask(() => {
  const [v4, v6, version, out] = process.argv.slice(2) as [string, string, string, string];
  writeBeside(out, AsnIndex.compile(readFileSync(v4, 'utf8'), readFileSync(v6, 'utf8'), version).serialize());
});
