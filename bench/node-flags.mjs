// Node flags every benchmarked server runs with, as `npm start` runs ours (package.json):
// young-generation semi-spaces of 4 MB, not V8's default of up to 32 MB, which a sustained
// load grows to and never gives back (RSS +190 MB for a live heap of 33 MB, bench/api.mjs).
export const NODE_FLAGS = ['--max-semi-space-size=4'];
