// Writes the figures of one `npm run bench:api` run into content/site/benchmarks.json (the
// table on /performance), replacing the rows this bench owns and keeping the others
// (bench:lookup's). Called by bench/api.mjs when BENCH_CONTENT=1.
import { readFileSync, writeFileSync } from 'node:fs';

const FILE = 'content/site/benchmarks.json';
const SETUP = 'wrk on one core, each server on the other, 50 connections, one process each, median ratio of 14 alternating rounds';

/** The rows for one run's result (bench/results/api.json). */
export function benchmarkRows(result) {
  const row = (target) => result.rows.find((r) => r.target === target);
  const on = result.date.slice(0, 10);
  const item = (id, name, value, unit) => ({ id, name, value, unit, measuredOn: on, command: 'npm run bench:api' });
  const ip = row('ours /ip');
  const json = row('ours /json?ip=8.8.8.8, memo');
  const distinct = row('ours /json, 10k addresses, lookups');
  const one = row('ours / (HTML, br+gzip), one visitor');
  const many = row('ours / (HTML, br+gzip), 10k visitors');
  return [
    item('ip-vs-bare', `GET /ip throughput, as a share of a bare node:http server answering only the socket address (${SETUP})`, ip['x bare'], 'x bare'),
    item('ip-vs-replay', 'GET /ip throughput, as a share of a bare node:http server sending a copy of our /ip answer (same headers and body): the cost of our code alone', ip['x replay'], 'x replay'),
    item('ip-p99', 'GET /ip latency at the 99th percentile, 50 connections', ip['p99 ms'], 'ms'),
    item('json-vs-bare', 'GET /json?ip=8.8.8.8 (the full record; after the first request the /json memo answers it) throughput, as a share of the bare server', json['x bare'], 'x bare'),
    item('json-p99', 'GET /json?ip=8.8.8.8 latency at the 99th percentile, 50 connections', json['p99 ms'], 'ms'),
    item('json-distinct-vs-bare', 'GET /json over 10,000 distinct public addresses, each answer a fresh lookup, as a share of the bare server', distinct['x bare'], 'x bare'),
    item('json-distinct-p99', 'GET /json over 10,000 distinct addresses, latency at the 99th percentile, 50 connections', distinct['p99 ms'], 'ms'),
    item('home-vs-bare', 'GET / (the HTML page with the visitor\'s record, gzip as a browser accepts it) for one visitor reloading it (after the first request the page memo answers), as a share of the bare server', one['x bare'], 'x bare'),
    item('home-distinct-vs-bare', 'GET / (the HTML page, gzip) for 10,000 distinct visitors, each a fresh lookup and page, as a share of the bare server', many['x bare'], 'x bare'),
    item('home-p99', 'GET / for 10,000 distinct visitors, latency at the 99th percentile, 50 connections', many['p99 ms'], 'ms'),
    item('home-first-byte', 'GET / with no load, a visitor\'s first page: time the server spent before the first byte (its Server-Timing header, median of 50 visitors)', +result.firstByteMs.toFixed(3), 'ms'),
    item('home-bytes', 'GET / as sent with gzip, for a typical record (8.8.8.8)', result.pageBytes, 'bytes'),
    item('start', 'Server start, from spawn to the first answer', Math.round(result.startMs), 'ms'),
    item('rss', 'Server memory (RSS) after start with every database loaded', Math.round(result.rssMb), 'MB'),
    item('rss-under-load', 'Highest server memory (RSS) during the whole run (several minutes of mixed load), as a multiple of RSS after start', +(result.rssMaxMb / result.rssMb).toFixed(2), 'x start'),
  ];
}

/** Replaces this bench's rows in content/site/benchmarks.json, in place, keeping the rest. */
export function writeBenchmarkRows(result) {
  const fresh = benchmarkRows(result);
  const ids = new Set([...fresh.map((r) => r.id), 'home-p50']);
  const kept = JSON.parse(readFileSync(FILE, 'utf8')).filter((r) => !ids.has(r.id));
  const rows = [...fresh, ...kept];
  writeFileSync(FILE, '[\n' + rows.map((r) => '  ' + JSON.stringify(r)).join(',\n') + '\n]\n');
}
