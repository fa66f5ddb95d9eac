// Drives a server with wrk (Debian's `wrk`, /usr/bin/wrk), which out-drives autocannon on
// one core: a Lua script walks a list of requests (path and X-Forwarded-For each) and
// prints its figures as one JSON line at the end. Used by bench/rate-limit.mjs and
// bench/soak.mjs. Also reads a process's CPU time and RSS from /proc, to tell whether the
// server or the load generator was the limit.
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

const dir = mkdtempSync(path.join(tmpdir(), 'wrk-'));

const SCRIPT = `
local list = {}
for line in io.lines(os.getenv("WRK_REQUESTS")) do
  local p, xff = line:match("^(%S+)\\t?(%S*)$")
  list[#list + 1] = { path = p, xff = xff }
end
local extra = os.getenv("WRK_HEADERS") or ""
local i = 0
function setup(thread) thread:set("offset", math.random(#list)) end
function init(args) i = tonumber(offset) or 0 end
function request()
  i = i % #list + 1
  local r = list[i]
  local h = {}
  for name, value in extra:gmatch("([^:|]+):([^|]*)") do h[name] = value end
  if r.xff ~= "" then h["X-Forwarded-For"] = r.xff end
  return wrk.format("GET", r.path, h)
end
function done(summary, latency, requests)
  io.write(string.format('WRK_JSON {"requests":%d,"us":%d,"connect":%d,"read":%d,"write":%d,"status":%d,"timeout":%d,"p50":%d,"p99":%d,"max":%d}\\n',
    summary.requests, summary.duration, summary.errors.connect, summary.errors.read, summary.errors.write,
    summary.errors.status, summary.errors.timeout, latency:percentile(50), latency:percentile(99), latency.max))
end
`;
const scriptFile = path.join(dir, 'walk.lua');
writeFileSync(scriptFile, SCRIPT);
let lists = 0;

/**
 * Runs wrk for `seconds` against `base` with `requests` ([path, xff?] pairs, walked in
 * turn from a random start). Resolves with req/s, p50/p99/max in ms, errors (socket errors
 * and answers that are not 2xx/3xx) and wrk's own CPU share of one core.
 */
export function wrk({ base, requests, seconds, connections = 50, headers = {}, cpu }) {
  const list = path.join(dir, `list-${lists++}.tsv`);
  writeFileSync(list, requests.map(([p, xff]) => `${p}\t${xff ?? ''}`).join('\n') + '\n');
  const [cmd, args] = cpu === undefined ? ['wrk', []] : ['taskset', ['-c', String(cpu), 'wrk']];
  const argv = [...args, '-t1', `-c${connections}`, `-d${seconds}s`, '--timeout', '5s', '-s', scriptFile, base];
  return new Promise((resolve, reject) => {
    const child = spawn(cmd, argv, {
      env: { ...process.env, WRK_REQUESTS: list, WRK_HEADERS: Object.entries(headers).map(([k, v]) => `${k}:${v}`).join('|') },
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let out = '';
    const started = cpuSeconds(child.pid);
    let used = 0;
    const sampler = setInterval(() => { used = cpuSeconds(child.pid) - started; }, 200);
    child.stdout.on('data', (d) => { out += d; });
    child.on('exit', (code) => {
      clearInterval(sampler);
      const json = /WRK_JSON (\{.*\})/.exec(out)?.[1];
      if (code !== 0 || !json) return reject(new Error(`wrk exited with ${code}:\n${out}`));
      const r = JSON.parse(json);
      resolve({
        rps: r.requests / (r.us / 1e6),
        requests: r.requests,
        p50: r.p50 / 1000, p99: r.p99 / 1000, max: r.max / 1000,
        errors: r.connect + r.read + r.write + r.status + r.timeout,
        errorDetail: { connect: r.connect, read: r.read, write: r.write, status: r.status, timeout: r.timeout },
        wrkCpu: used / seconds,
      });
    });
    child.on('error', reject);
  });
}

/** User + system CPU seconds a process has used so far (0 once it is gone). */
export function cpuSeconds(pid) {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
    return (Number(fields[11]) + Number(fields[12])) / 100; // utime, stime in clock ticks (100/s)
  } catch {
    return 0;
  }
}

/** Resident memory of a process in MB. */
export function rssMb(pid) {
  return Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))[1]) / 1024;
}

export const median = (xs) => { const s = [...xs].sort((a, b) => a - b); const m = s.length >> 1; return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2; };
