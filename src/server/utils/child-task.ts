/**
 * Work done in a short-lived child process that leaves its result in a file: the built
 * indexes (the city search's and the networks', built-index/loader.ts) when the build did
 * not ship them or newer data arrived, the ASN index compiled from its CSV, a data package
 * unpacked. The one way the server runs such work: done in a worker thread, its garbage
 * stayed in the server's malloc arenas after the worker ended (bench/data-swap.mjs
 * measured both: docs/benchmarks.md); a process that exits gives all of it back, and the
 * server only reads the finished file. The child writes beside its target and renames over
 * it, so a reader never sees half a file.
 */
import { spawn } from 'node:child_process';
import { mkdirSync, renameSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { errorMessage } from '../../lib/error-message.ts';

/** Past this the child is killed and its work counts as failed, ms. */
const TASK_TIMEOUT_MS = 180_000;
/** Most of a failed child's stderr kept for the error message, characters. */
const STDERR_KEPT = 500;
/** Most of a child's stdout kept (its notes), characters. */
const STDOUT_KEPT = 4000;

/** A child task that failed: `reason` is what the child itself said, when it said anything. */
export class ChildTaskError extends Error {
  readonly reason: string | undefined;
  constructor(message: string, reason: string | undefined) {
    super(message);
    this.reason = reason;
  }
}

/**
 * Runs `script` (a module this Node runs, .ts included) with `args` in a child process.
 * Resolves when it exits with 0, with the lines it wrote to stdout (notes for the log);
 * rejects with what it wrote to stderr otherwise, or when it runs past `timeoutMs` (it is
 * killed then).
 */
export function runChildTask(script: URL, args: readonly string[], timeoutMs = TASK_TIMEOUT_MS): Promise<string[]> {
  const name = path.basename(fileURLToPath(script));
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [fileURLToPath(script), ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
    let stderr = '';
    let stdout = '';
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => { stderr = (stderr + chunk).slice(-STDERR_KEPT); });
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => { stdout = (stdout + chunk).slice(0, STDOUT_KEPT); });
    const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
    child.once('error', (error) => { clearTimeout(timer); reject(error); });
    child.once('close', (code, signal) => {
      clearTimeout(timer);
      if (code === 0) return resolve(stdout.split('\n').filter((line) => line.trim() !== ''));
      const why = signal ? `was stopped (${signal})` : `exited with code ${code}`;
      const said = stderr.trim();
      reject(new ChildTaskError(`${name} ${why}${said ? `: ${said}` : ''}`, said || undefined));
    });
  });
}

/**
 * The body of a child task: runs `work`, and on an error writes its message alone to
 * stderr (runChildTask's rejection carries it) and exits with 1.
 */
export async function childTask(work: () => Promise<void> | void): Promise<void> {
  try {
    await work();
  } catch (error) {
    process.stderr.write(errorMessage(error));
    process.exitCode = 1;
  }
}

/** Writes a file beside its target and renames it over the target. */
export function writeBeside(target: string, bytes: Uint8Array): void {
  mkdirSync(path.dirname(target), { recursive: true });
  const temp = `${target}.${process.pid}.tmp`;
  writeFileSync(temp, bytes);
  renameSync(temp, target);
}
