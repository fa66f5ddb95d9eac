/**
 * Child-process entry: unpacks a data package's tarball into a new folder, with a cap on
 * the unpacked bytes, and asks its databases their known answers (package-check.ts). In a
 * process of its own, so neither a tarball that inflates without end nor opening a hundred
 * megabytes of databases touches the server's event loop or heap. Started by update.ts
 * (runChildTask); it exits 1 with the reason on stderr when the package is refused.
 *
 * Arguments: the package name, the .tgz file, the folder to fill, the cap in bytes.
 */
import { childTask } from '../utils/child-task.ts';
import { isKept, packageProblem } from './package-check.ts';
import { unpackTarball } from './tarball.ts';

await childTask(async () => {
  const [name, tgz, out, cap] = process.argv.slice(2) as [string, string, string, string];
  await unpackTarball(tgz, out, isKept, Number(cap));
  const problem = await packageProblem(name, out);
  if (problem) throw new Error(problem);
});
