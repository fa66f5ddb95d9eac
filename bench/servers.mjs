// What the HTTP benchmarks share (bench/api.mjs, bench/cities.mjs): pinning, starting a
// server on a free port and waiting until it answers, its RSS, medians.
// With two or more cores and `taskset`, every server runs on core 1 and the benchmark (its
// load generator) on core 0, so the load generator never takes the server's core.
import { spawn, execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import os from 'node:os';
import { NODE_FLAGS } from './node-flags.mjs';

const hasTaskset = (() => { try { execFileSync('taskset', ['-V'], { stdio: 'ignore' }); return true; } catch { return false; } })();
/** True when servers get core 1 and this process core 0. */
export const PIN = hasTaskset && os.availableParallelism() >= 2 && process.env.BENCH_PIN !== '0';
if (PIN) execFileSync('taskset', ['-p', '-c', '0', String(process.pid)], { stdio: 'ignore' });

export const freePort = () => new Promise((resolve) => {
  const s = createServer().listen(0, '127.0.0.1', () => { const { port } = s.address(); s.close(() => resolve(port)); });
});

/**
 * Starts `node ...args` (pinned to core 1 when PIN) on a free port; resolves once
 * `readyPath` answers 2xx, with `startMs` from spawn to that first answer.
 */
export async function start(name, args, env, readyPath = '/ip') {
  const port = await freePort();
  const t0 = performance.now();
  const [cmd, argv] = PIN ? ['taskset', ['-c', '1', process.execPath, ...NODE_FLAGS, ...args]] : [process.execPath, [...NODE_FLAGS, ...args]];
  const child = spawn(cmd, argv, { env: { ...process.env, HOST: '127.0.0.1', PORT: String(port), STUN_PORT: '0', DATA_REFRESH: 'off', REVERSE_DNS: 'off', ...env }, stdio: ['ignore', 'pipe', 'inherit'] });
  await new Promise((resolve, reject) => {
    child.stdout.on('data', (d) => { if (String(d).includes('listening on')) resolve(); });
    child.once('exit', (code) => reject(new Error(`${name} exited with ${code}`)));
  });
  // Ready means answering, not just listening.
  while (!(await fetch(`http://127.0.0.1:${port}${readyPath}`).then((r) => r.ok, () => false))) await new Promise((r) => setTimeout(r, 10));
  return { name, child, url: `http://127.0.0.1:${port}`, startMs: performance.now() - t0 };
}

/** Resident memory of a process, MB. */
export const rssMb = (pid) => {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  return Number(/VmRSS:\s+(\d+)/.exec(status)[1]) / 1024;
};

/** CPU seconds (user + system) a process has used so far. */
export const cpuSeconds = (pid) => {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
  return (Number(fields[11]) + Number(fields[12])) / 100;
};

export const median = (xs) => { const s = [...xs].sort((a, b) => a - b); const m = s.length >> 1; return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2; };
