/**
 * Worker-thread entry: builds the city index off the main thread and hands its arrays
 * over without copying (their buffers are transferred), so the server answers other
 * requests while it builds. Started by src/server/cities/load.ts.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { buildCityIndexData, transferList } from './load.ts';
import type { CityDataFiles } from './city-data.ts';

const { data, problems } = buildCityIndexData(workerData as CityDataFiles);
parentPort!.postMessage({ data, problems }, transferList(data));
