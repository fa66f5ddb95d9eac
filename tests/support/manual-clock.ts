/**
 * A clock a test moves by hand, for code that takes a clock (the analytics queue's
 * `QueueClock`): timers run only when `advance` passes their time, in time order, with
 * every promise they start settled before the next one, so "nothing happened before
 * 249 ms" is a statement about the code, not about how busy the machine was.
 */
import type { QueueClock } from '../../src/server/storage/queue.ts';

/** Lets every pending promise callback run (one macrotask turn). */
export const settle = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

export class ManualClock implements QueueClock {
  private time: number;
  private nextId = 1;
  private readonly timers = new Map<number, { at: number; run: () => void }>();

  constructor(start = 0) {
    this.time = start;
  }

  now(): number {
    return this.time;
  }

  setTimer(run: () => void, ms: number): number {
    const id = this.nextId++;
    this.timers.set(id, { at: this.time + ms, run });
    return id;
  }

  clearTimer(timer: unknown): void {
    this.timers.delete(timer as number);
  }

  sleep(ms: number): Promise<void> {
    return new Promise((resolve) => this.setTimer(resolve, ms));
  }

  /** Moves time forward by `ms`, running each timer due on the way at its own time. */
  async advance(ms: number): Promise<void> {
    const end = this.time + ms;
    for (;;) {
      await settle();
      let due: [number, { at: number; run: () => void }] | undefined;
      for (const entry of this.timers) if (entry[1].at <= end && (!due || entry[1].at < due[1].at)) due = entry;
      if (!due) break;
      this.timers.delete(due[0]);
      this.time = due[1].at;
      due[1].run();
    }
    this.time = end;
    await settle();
  }
}
