/**
 * Child-process entry: builds the city index from the place data and writes it in the form
 * `npm run build` writes (index-file.ts), which the server then loads (load.ts); the
 * problems the build met (no alternate names) go to stdout, one a line, for the server's
 * log. A process of its own, so the build's garbage leaves with it (utils/child-task.ts).
 *
 * Argument: one JSON object, a CityBuildInput.
 */
import { childTask, writeBeside } from '../utils/child-task.ts';
import { encodeIndex } from './index-file.ts';
import { buildCityIndexData, type CityBuildInput } from './load.ts';

await childTask(() => {
  const input = JSON.parse(process.argv[2]!) as CityBuildInput;
  const { data, problems } = buildCityIndexData(input.files);
  writeBeside(input.out, encodeIndex(data, input.version));
  for (const problem of problems) process.stdout.write(`${problem}\n`);
});
