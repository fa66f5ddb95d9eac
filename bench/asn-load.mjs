// One measurement of loading the network index, in a fresh process so memory figures are its
// own: `node --expose-gc bench/asn-load.mjs file|build` prints JSON with the time to a ready
// index, the CPU it took, and the RSS it added (after GC) and at its peak. Used by
// bench/asn.mjs; `file` reads dist/data/network-index.bin, `build` builds from the data in
// this thread. The ASN index it needs is loaded first and not counted (the engine holds it anyway).
import path from 'node:path';
const mode = process.argv[2] === 'build' ? 'build' : 'file';
const { openAsnIndex, dbipCityFiles } = await import('../src/server/data/sources.ts');
const { loadNetworkIndex } = await import('../src/server/networks/load.ts');
const dist = path.resolve(process.env.DIST_DIR || 'dist');
const asn = await openAsnIndex(dist);
if (asn instanceof Error) throw asn;
const places = dbipCityFiles();
globalThis.gc();
const rss0 = process.memoryUsage().rss;
let peak = rss0;
const sampler = setInterval(() => { peak = Math.max(peak, process.memoryUsage().rss); }, 5);
const cpu0 = process.cpuUsage();
const handle = loadNetworkIndex({ asn, places, distDir: dist, inThread: true, warn: () => {}, ...(mode === 'build' ? { file: '/nonexistent/network-index.bin' } : {}) });
const index = await handle.ready;
const cpu = process.cpuUsage(cpu0);
clearInterval(sampler);
if (index instanceof Error) throw index;
peak = Math.max(peak, process.memoryUsage().rss);
globalThis.gc();
await new Promise((r) => setTimeout(r, 50));
globalThis.gc();
console.log(JSON.stringify({
  mode, readyMs: handle.readyMs(), cpuMs: (cpu.user + cpu.system) / 1000,
  extraRssMb: (process.memoryUsage().rss - rss0) / 1048576, peakExtraRssMb: (peak - rss0) / 1048576, networks: index.size,
}));
