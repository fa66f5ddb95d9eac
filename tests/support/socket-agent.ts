/**
 * The clients of tests/connection-cap.test.ts that must not be loopback, run by node inside
 * the test's network namespace (netns.ts, beside this file: `agentIn`), where the addresses
 * they connect from and to are the namespace's own. It reads one JSON call a line on stdin,
 * `{ id, op, args }`, and writes one JSON line for each, `{ id, value }` or `{ id, error }`.
 * Connections opened together form a group, named by the number `open` returns. It ends,
 * closing every connection, when stdin does (the test process gone).
 *
 * Calls: `open {n, target}`, `closed {group}` (how many the server closed), `ask {group, path}`
 * (the status lines on those still open), `destroy {group, count}` (closes that many still
 * open), `get {target, path}` (status and body of one GET on a connection of its own),
 * `flood {targets, maxTries}` (starts opening connections to each target as fast as it can,
 * holding those the server keeps), `flooded` and `stopFlood` (how many were tried and are held).
 */
import { connect, type Socket } from 'node:net';
import { createInterface } from 'node:readline';
import { ask, get, held, open, type Opened, type Target } from './sockets.ts';

const groups: Opened[] = [];
const everySocket = new Set<Socket>();

/** A flood's figures: connections tried, and those connected and not closed since. */
const flood = { running: false, tried: 0, held: 0, loops: [] as Array<Promise<void>> };
/** Connects at once from one flooding address. */
const FLOOD_BATCH = 50;
/** How long a flood's connect may take before the next batch goes without it. */
const FLOOD_CONNECT_MS = 2_000;

/** Opens FLOOD_BATCH connections to `target`; resolves once each has connected, failed or taken FLOOD_CONNECT_MS. */
function floodBatch(target: Target): Promise<unknown> {
  return Promise.all(Array.from({ length: FLOOD_BATCH }, () => new Promise<void>((resolve) => {
    flood.tried++;
    const socket = connect({ host: target.host, port: target.port, localAddress: target.from });
    everySocket.add(socket);
    const timer = setTimeout(resolve, FLOOD_CONNECT_MS);
    socket.on('error', () => { clearTimeout(timer); resolve(); });
    socket.once('connect', () => {
      flood.held++;
      socket.once('close', () => { flood.held--; });
      clearTimeout(timer);
      resolve();
    });
    socket.once('close', () => everySocket.delete(socket));
  })));
}

const group = (args: { group: number }): Opened => {
  const found = groups[args.group];
  if (!found) throw new Error(`no group ${args.group}`);
  return found;
};

const calls: Record<string, (args: never) => unknown> = {
  async open(args: { n: number; target: Target }) {
    const opened = await open(args.n, args.target);
    for (const s of opened.sockets) everySocket.add(s);
    return groups.push(opened) - 1;
  },
  closed: (args: { group: number }) => group(args).closed.size,
  ask: (args: { group: number; path?: string }) => Promise.all(held(group(args)).map((s) => ask(s, args.path))),
  destroy(args: { group: number; count: number }) {
    const closing = held(group(args)).slice(0, args.count);
    for (const s of closing) s.destroy();
    return closing.length;
  },
  get: (args: { target: Target; path: string }) => get(args.target, args.path),
  flood(args: { targets: Target[]; maxTries: number }) {
    if (flood.running) throw new Error('a flood is running already');
    flood.running = true;
    flood.loops = args.targets.map(async (target) => {
      while (flood.running && flood.tried < args.maxTries) await floodBatch(target);
    });
    return null;
  },
  flooded: () => ({ tried: flood.tried, held: flood.held }),
  async stopFlood() {
    flood.running = false;
    await Promise.all(flood.loops);
    return { tried: flood.tried, held: flood.held };
  },
};

const reply = (line: object) => process.stdout.write(`${JSON.stringify(line)}\n`);
const lines = createInterface({ input: process.stdin });
lines.on('line', (line) => {
  const { id, op, args } = JSON.parse(line) as { id: number; op: string; args: unknown };
  const call = calls[op];
  Promise.resolve()
    .then(() => { if (!call) throw new Error(`no call ${op}`); return call(args as never); })
    .then((value) => reply({ id, value: value ?? null }), (error: unknown) => reply({ id, error: String(error) }));
});
lines.once('close', () => {
  flood.running = false;
  for (const s of everySocket) s.destroy();
  process.exit(0);
});
