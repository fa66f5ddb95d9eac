/**
 * How the server writes a failure to its log: one line, never a stack trace per request
 * (a flood of odd requests must not become a flood of log lines; tests/odd-requests.test.ts).
 */

/** An error as one line: its name and message, and where it was thrown (the stack's first frame). */
export function oneLine(error: unknown): string {
  if (!(error instanceof Error)) return String(error).split('\n', 1)[0]!.slice(0, 300);
  const frame = /\n\s+at (.*)/.exec(error.stack ?? '')?.[1];
  const text = `${error.name}: ${error.message.split('\n', 1)[0]}`.slice(0, 300);
  return frame ? `${text} (at ${frame})` : text;
}

/**
 * Writes each kind of line at most once per `intervalMs` (a minute by default), for failures
 * that can repeat once per packet or request: the lines held back in between are counted
 * and the next line written says how many there were. Kinds are a few names the caller
 * picks, never taken from input, so what it remembers stays small.
 */
export class RareLog {
  readonly #write: (line: string) => void;
  readonly #intervalMs: number;
  readonly #now: () => number;
  /** Per kind: when its last line was written, and how many were held back since. */
  readonly #kinds = new Map<string, { at: number; held: number }>();

  constructor(write: (line: string) => void = console.warn, intervalMs = 60_000, now: () => number = Date.now) {
    this.#write = write;
    this.#intervalMs = intervalMs;
    this.#now = now;
  }

  /** Writes `line` unless a line of this `kind` was written less than the interval ago. */
  log(kind: string, line: string): void {
    const t = this.#now();
    const last = this.#kinds.get(kind);
    if (last && t - last.at < this.#intervalMs) {
      last.held++;
      return;
    }
    const held = last?.held ? ` (and ${last.held} more like it since the last one)` : '';
    this.#kinds.set(kind, { at: t, held: 0 });
    this.#write(line + held);
  }
}
