// `BASELINE_DIR=<a copy of the tree at another commit> npm run bench:json-handler`: the /json
// handler of this tree against the baseline tree's, in one process, without sockets: 10,000
// distinct public IPv4 addresses (each comes back after the 9,999 others, past what the memo
// keeps, so every answer is a fresh lookup), 15 rounds of 30,000 answers alternating which tree
// goes first, and the server's CPU time per answer including
// what the wire does with its body (its length, and its bytes beside the headers). Prints each
// tree's median and the median of the per-round ratios. On a machine shared with other work this
// is the steadiest comparison of the two: no load generator, no scheduler between the two sides.
// With ONLY=base or ONLY=new it answers 50,000 requests of that tree after a warm-up, between
// the lines MARK and END, for `node --trace-gc-nvp` to count the bytes allocated per answer.
import path from 'node:path';
import { publicAddresses } from './seeded-random.mjs';

const BASE = process.env.BASELINE_DIR;
if (!BASE) throw new Error('BASELINE_DIR must name a copy of the tree to compare with (with node_modules)');
const trees = { base: path.resolve(BASE), new: path.resolve('.') };
const ROUNDS = 15;
const PASSES = 3;

const handlers = {};
for (const [name, root] of Object.entries(trees)) {
  const { openSources } = await import(path.join(root, 'src/server/data/sources.ts'));
  const { engineFrom } = await import(path.join(root, 'src/server/lookup/engine.ts'));
  const { createTextEndpoints } = await import(path.join(root, 'src/server/handlers/command-line-api.ts'));
  const { sources } = await openSources({ distDir: path.resolve('dist') });
  handlers[name] = createTextEndpoints(engineFrom(sources));
}
const addresses = await publicAddresses(0x2545f491);
const requests = addresses.map((ip) => ({
  method: 'GET', path: '/json', query: new URLSearchParams(`ip=${ip}`), headers: { get: () => null },
  clientIp: '127.0.0.1', clientAddress: undefined, body: async () => Buffer.alloc(0),
}));
// About the size of a /json answer's headers.
const HEAD = 'HTTP/1.1 200 OK\r\n' + 'x-header: a-value-of-some-length\r\n'.repeat(16) + '\r\n';

let sink = 0;
/** One answer and what node does with its body: a string is measured, joined to the headers and encoded; a Buffer is written beside them. */
function answer(handler, request) {
  const { body } = handler(request);
  sink += typeof body === 'string' ? Buffer.byteLength(body) + Buffer.from(HEAD + body).length : Buffer.byteLength(HEAD) + body.length;
}

const only = process.env.ONLY;
if (only) {
  for (const request of requests) answer(handlers[only], request);
  console.log('MARK');
  for (let k = 0; k < 5; k++) for (const request of requests) answer(handlers[only], request);
  console.log('END', 5 * requests.length);
} else {
  const cpu = { base: [], new: [] };
  for (let round = 0; round < ROUNDS; round++) {
    for (const name of round % 2 ? ['new', 'base'] : ['base', 'new']) {
      const before = process.cpuUsage();
      for (let k = 0; k < PASSES; k++) for (const request of requests) answer(handlers[name], request);
      const used = process.cpuUsage(before);
      cpu[name].push((used.user + used.system) / (PASSES * requests.length));
    }
  }
  const median = (xs) => [...xs].sort((a, b) => a - b)[xs.length >> 1];
  const ratios = cpu.new.map((x, i) => x / cpu.base[i]);
  console.log(`/json, 10,000 distinct addresses, CPU per answer (median of ${ROUNDS} rounds): baseline ${median(cpu.base).toFixed(2)} us, this tree ${median(cpu.new).toFixed(2)} us; this tree over the baseline, per round: ${median(ratios).toFixed(3)}x${sink > 0 ? '' : ' (nothing answered)'}`);
}
