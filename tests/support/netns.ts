/**
 * A network namespace of a test's own (iproute2's `ip`, as root), for clients that must not
 * be loopback (tests/connection-cap.test.ts): its `lo` is up and carries test addresses of
 * its own, and a server and its clients run inside it as child processes, so their traffic
 * never leaves it and never goes to this machine's own interface addresses. The namespace is
 * named by a prefix and the test process's id; one left by a killed run (its process gone)
 * is removed before a new one is made.
 *
 * Without root or `ip`, or when `ip netns add` fails, the cases that need it skip with a
 * message, and fail under CI (required-service.ts).
 */
import { spawn, spawnSync, type ChildProcess, type SpawnOptions } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { OFFLINE_CLIENT_ENV } from './browser-harness.ts';
import { OFFLINE_ENV } from './offline-env.ts';
import { requiredService, type RequiredService } from './required-service.ts';

/** A namespace made by the test. */
export interface Namespace {
  name: string;
  /** Starts `command args` inside it (`ip netns exec`). */
  spawn(command: string, args: string[], options?: SpawnOptions): ChildProcess;
  /** Kills what still runs inside it that `spawn` started, and deletes it. */
  remove(): void;
}

/** `ip args`, synchronously: the error text when it fails, undefined when it succeeds. */
function ip(args: string[]): string | undefined {
  const run = spawnSync('ip', args, { encoding: 'utf8', timeout: 10_000 });
  if (run.error) return `\`ip ${args.join(' ')}\`: ${run.error.message}`;
  return run.status === 0 ? undefined : `\`ip ${args.join(' ')}\` failed: ${run.stderr.trim() || `exit ${run.status}`}`;
}

const alive = (pid: number): boolean => {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
};

/** Deletes the namespaces named `prefix-<pid>` whose process is gone (or is this one, from an earlier life of its id). */
function removeStale(prefix: string): void {
  const list = spawnSync('ip', ['netns', 'list'], { encoding: 'utf8', timeout: 10_000 }).stdout ?? '';
  for (const name of list.split('\n').map((line) => line.split(' ')[0]!)) {
    const pid = name.startsWith(`${prefix}-`) ? /^\d+$/.exec(name.slice(prefix.length + 1))?.[0] : undefined;
    if (pid !== undefined && (Number(pid) === process.pid || !alive(Number(pid)))) ip(['netns', 'delete', name]);
  }
}

/**
 * Makes the namespace `prefix-<pid>` with `lo` up and `addresses` (CIDR, such as
 * 10.77.0.1/32 or fd77::1/128; IPv6 without duplicate address detection) on it; the reason
 * when it cannot.
 */
function makeNamespace(prefix: string, addresses: string[]): Namespace | string {
  if (process.getuid?.() !== 0) return 'not root: a network namespace needs root';
  if (spawnSync('ip', ['-V'], { timeout: 10_000 }).error) return 'no `ip` command (Debian: apt-get install iproute2)';
  removeStale(prefix);
  const name = `${prefix}-${process.pid}`;
  const added = ip(['netns', 'add', name]);
  if (added) return added;
  const children = new Set<ChildProcess>();
  const namespace: Namespace = {
    name,
    spawn(command, args, options = {}) {
      const child = spawn('ip', ['netns', 'exec', name, command, ...args], options);
      children.add(child);
      child.once('exit', () => children.delete(child));
      return child;
    },
    remove() {
      for (const child of children) child.kill('SIGKILL');
      ip(['netns', 'delete', name]);
    },
  };
  const failed = ip(['-n', name, 'link', 'set', 'lo', 'up'])
    ?? addresses.map((a) => ip(['-n', name, 'address', 'add', a, 'dev', 'lo', ...(a.includes(':') ? ['nodad'] : [])])).find(Boolean);
  if (failed) {
    namespace.remove();
    return failed;
  }
  return namespace;
}

/**
 * The gate of the cases that need a namespace of their own (see the header), made at once
 * with `addresses` on its `lo`; `remove` deletes it (call it in afterAll: it does nothing
 * when there is none).
 */
export function testNamespace(prefix: string, addresses: string[]): RequiredService<Namespace> & { remove(): void } {
  const made = makeNamespace(prefix, addresses);
  const gate = requiredService(typeof made === 'string' ? undefined : made, `No network namespace of the test's own (${typeof made === 'string' ? made : ''})`);
  return { ...gate, remove: () => { if (typeof made !== 'string') made.remove(); } };
}

/** A server running inside a namespace. */
export interface NamespacedServer {
  port: number;
  output(): string;
  /** Kills it and removes its DATA_DIR. */
  stop(): Promise<void>;
}

/**
 * Starts `src/server/main.ts` inside `namespace` on `::` (both families), a free port, its
 * own DATA_DIR, nothing that would reach outside, and `env`; with `ulimit`, under that
 * descriptor limit. Resolves once it listens (at most 30 s).
 */
export function serveIn(namespace: Namespace, env: Record<string, string>, options: { ulimit?: number } = {}): Promise<NamespacedServer> {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'whatismyip-netns-'));
  const [command, args] = options.ulimit === undefined
    ? [process.execPath, ['src/server/main.ts']]
    : ['sh', ['-c', `ulimit -n ${options.ulimit} && exec "$0" src/server/main.ts`, process.execPath]];
  const child = namespace.spawn(command, args, {
    env: { ...process.env, ...OFFLINE_ENV, HOST: '::', DATABASE_URL: '', DATA_DIR: dataDir, ...OFFLINE_CLIENT_ENV, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) await new Promise((resolve) => { child.once('exit', resolve); child.kill('SIGKILL'); });
    rmSync(dataDir, { recursive: true, force: true });
  };
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => { void stop(); reject(new Error(`server did not start in its namespace:\n${output}`)); }, 30_000);
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      const port = /listening on http:\/\/\[::\]:(\d+)/.exec(output)?.[1];
      if (port === undefined) return;
      clearTimeout(timer);
      resolve({ port: Number(port), output: () => output, stop });
    };
    child.stdout!.on('data', onData);
    child.stderr!.on('data', onData);
    child.once('exit', (code) => { clearTimeout(timer); rmSync(dataDir, { recursive: true, force: true }); reject(new Error(`server exited with ${code}:\n${output}`)); });
  });
}

/** The socket agent (socket-agent.ts, beside this file) running inside a namespace. */
export interface Agent {
  /** One call; rejects with the agent's error, or after 30 s. */
  call<T>(op: string, args?: object): Promise<T>;
  /** Ends it (it closes its connections) and waits for it to exit. */
  stop(): Promise<void>;
}

/** Starts the socket agent inside `namespace`. */
export function agentIn(namespace: Namespace): Agent {
  const child = namespace.spawn(process.execPath, [path.join(import.meta.dirname, 'socket-agent.ts')], { stdio: ['pipe', 'pipe', 'pipe'] });
  const pending = new Map<number, { resolve(value: unknown): void; reject(error: Error): void }>();
  let next = 0;
  let buffered = '';
  let errors = '';
  child.stderr!.on('data', (chunk: Buffer) => { errors += chunk.toString(); });
  // A call written after the agent exited fails through `exit` below, not as an unhandled EPIPE.
  child.stdin!.on('error', () => {});
  child.stdout!.on('data', (chunk: Buffer) => {
    buffered += chunk.toString();
    let end: number;
    while ((end = buffered.indexOf('\n')) >= 0) {
      const reply = JSON.parse(buffered.slice(0, end)) as { id: number; value?: unknown; error?: string };
      buffered = buffered.slice(end + 1);
      const waiting = pending.get(reply.id);
      pending.delete(reply.id);
      if (reply.error !== undefined) waiting?.reject(new Error(reply.error));
      else waiting?.resolve(reply.value);
    }
  });
  child.once('exit', (code) => {
    for (const waiting of pending.values()) waiting.reject(new Error(`the socket agent exited with ${code}: ${errors}`));
    pending.clear();
  });
  return {
    call<T>(op: string, args: object = {}) {
      const id = next++;
      return new Promise<T>((resolve, reject) => {
        if (child.exitCode !== null || child.signalCode !== null) return reject(new Error(`the socket agent has exited: ${errors}`));
        const timer = setTimeout(() => { pending.delete(id); reject(new Error(`the socket agent did not answer ${op} in 30 s: ${errors}`)); }, 30_000);
        pending.set(id, {
          resolve: (value) => { clearTimeout(timer); resolve(value as T); },
          reject: (error) => { clearTimeout(timer); reject(error); },
        });
        child.stdin!.write(`${JSON.stringify({ id, op, args })}\n`);
      });
    },
    stop: () => new Promise<void>((resolve) => {
      if (child.exitCode !== null || child.signalCode !== null) return resolve();
      const timer = setTimeout(() => child.kill('SIGKILL'), 5_000);
      child.once('exit', () => { clearTimeout(timer); resolve(); });
      child.stdin!.end();
    }),
  };
}
