// One measurement of loading the city index, in a fresh process so memory figures are its
// own: `node --expose-gc bench/cities-load.mjs file|build` prints JSON with the time to a
// ready index, the CPU it took, and the RSS it added (after GC) and at its peak.
// Used by bench/cities.mjs; `file` reads dist/data/city-index.bin, `build` builds from the packages.
const mode = process.argv[2] === 'build' ? 'build' : 'file';
const { loadCityIndex } = await import('../src/server/cities/load.ts');
globalThis.gc();
const rss0 = process.memoryUsage().rss;
let peak = rss0;
const sampler = setInterval(() => { peak = Math.max(peak, process.memoryUsage().rss); }, 5);
const cpu0 = process.cpuUsage();
const handle = loadCityIndex(mode === 'build' ? { distDir: null, inThread: true, warn: () => {} } : { warn: () => {} });
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
  extraRssMb: (process.memoryUsage().rss - rss0) / 1048576, peakExtraRssMb: (peak - rss0) / 1048576, ...index.size,
}));
