/**
 * The engine a server answers with, behind one holder so newer databases take effect
 * without a restart. When the refresher (or `npm run data:update`) unpacks a newer data
 * package it rewrites a stamp file (DATA_DIR/ip-location-db/updated, sources.ts); every
 * process polls it, opens the new databases beside the running ones, and replaces its
 * engine whole in one assignment. A lookup is synchronous and asks one engine from start
 * to end, so no answer mixes the two versions, and none is lost; the old databases are
 * freed when the last reference goes. `dataGeneration` changes with the swap, which drops
 * the memos that hold answers from the old data (the /json memo reads it). The privacy
 * lists are the same object across swaps (they reload their own files). What is built from
 * the engine's data elsewhere (the network index) hears of each swap through `onSwap`.
 */
import { createEngine, type Engine } from './engine.ts';
import type { SourceOptions } from '../data/sources.ts';
import { packagesStamp } from '../data/layout.ts';
import { collectGarbage } from '../utils/collect-garbage.ts';
import { errorMessage } from '../../lib/error-message.ts';
import { watchForChanges } from '../utils/watch-file.ts';

/** What createEngine gives: the engine, its sources' states and its data for the network pages. */
export type FullEngine = Awaited<ReturnType<typeof createEngine>>;

/** How often the stamp file is polled, ms. */
const STAMP_POLL_MS = 5000;

export class EngineHolder implements Engine {
  private current: FullEngine;
  private swaps = 0;
  /** What `dataGeneration` last saw (swaps, the engine's own generation, the minute), and its count of changes. */
  private seenSwaps = 0;
  private seenLists = -1;
  private seenMinute = -1;
  private generation = 0;
  private readonly log: (line: string) => void;
  private unwatch: (() => void) | undefined;
  private readonly swapListeners: Array<(next: FullEngine) => void> = [];

  constructor(engine: FullEngine, log: (line: string) => void = (line) => console.log(`lookup: ${line}`)) {
    this.current = engine;
    this.log = log;
  }

  lookup(...args: Parameters<Engine['lookup']>): ReturnType<Engine['lookup']> {
    return this.current.lookup(...args);
  }

  sourcePlaces(ip: string): ReturnType<Engine['sourcePlaces']> {
    return this.current.sourcePlaces(ip);
  }

  get sources(): readonly string[] {
    return this.current.sources;
  }

  /**
   * Changes with a swap, with the lists, and every minute: the privacy reasons count a
   * list's age in minutes, so an answer kept longer would say a stale age.
   */
  get dataGeneration(): number {
    // Compared as numbers: asked on every /json, a key string per ask was garbage per request.
    const lists = this.current.dataGeneration;
    const minute = Math.floor(Date.now() / 60_000);
    if (this.swaps !== this.seenSwaps || lists !== this.seenLists || minute !== this.seenMinute) {
      this.seenSwaps = this.swaps;
      this.seenLists = lists;
      this.seenMinute = minute;
      this.generation++;
    }
    return this.generation;
  }

  /** The data the network pages read (the engine's at their start). */
  get data(): FullEngine['data'] {
    return this.current.data;
  }

  dataStates(): Array<[string, string]> {
    return this.current.dataStates();
  }

  /** How many times the engine was replaced. */
  get swapCount(): number {
    return this.swaps;
  }

  /** Replaces the engine whole: the next lookup asks the new one. */
  swap(next: FullEngine): void {
    this.current = next;
    this.swaps++;
    for (const listener of this.swapListeners) listener(next);
  }

  /** Calls `listener` with the new engine after each swap (it must not throw, nor make the swap wait). */
  onSwap(listener: (next: FullEngine) => void): this {
    this.swapListeners.push(listener);
    return this;
  }

  /** Opens the databases again, as at start but keeping the lists, and swaps them in. */
  async reopen(options: SourceOptions): Promise<void> {
    const started = performance.now();
    const next = await createEngine({ ...options, openedLists: this.current.data.lists, installedIfBroken: false });
    // A database that opened before and not now (a broken download) would empty its fields: keep the old ones.
    const lost = this.current.sources.filter((name) => !next.sources.includes(name));
    if (lost.length) {
      this.log(`the newer databases were not swapped in: ${lost.join(', ')} could not be opened; answering from the ones loaded`);
      return;
    }
    this.swap(next);
    const swapped = Math.round(performance.now() - started);
    // The old databases are garbage now; collected at once, they leave RSS now, not at V8's leisure.
    const collected = performance.now();
    const released = collectGarbage() ? `, old data released in ${Math.round(performance.now() - collected)} ms` : '; the old data stays in memory until the next major GC (this runtime gives no gc())';
    this.log(`opened the newer databases and swapped them in (${swapped} ms${released}; ${next.dataStates().map(([n, s]) => `${n} ${s}`).join(', ')})`);
  }

  /** Polls the stamp file under DATA_DIR and reopens the databases whenever it changes. */
  watch(options: SourceOptions & { dataDir: string }, pollMs = STAMP_POLL_MS): this {
    const stamp = packagesStamp(options.dataDir);
    let opening = Promise.resolve();
    this.unwatch = watchForChanges(stamp, pollMs, (now) => {
      if (now.mtimeMs === 0) return;
      opening = opening.then(() => this.reopen(options)).catch((error: unknown) => {
        this.log(`the newer databases could not be opened (${errorMessage(error)}); answering from the ones loaded`);
      });
    });
    return this;
  }

  close(): void {
    this.unwatch?.();
    this.current.data.lists?.close();
  }
}
