/**
 * Keeps correction events in memory, the newest `limit` of them, until the analytics
 * store (which implements the same CorrectionRecorder) takes over. Nothing here is an
 * address: events are distances and coarse context (src/lib/correction.ts).
 */
import type { CorrectionEvent, CorrectionRecorder } from '../../lib/correction.ts';

export class MemoryCorrections implements CorrectionRecorder {
  private readonly events: CorrectionEvent[] = [];
  private readonly limit: number;
  constructor(limit = 10_000) {
    this.limit = limit;
  }

  recordCorrection(event: CorrectionEvent): void {
    if (this.events.length >= this.limit) this.events.shift();
    this.events.push(event);
  }

  /** The kept events, oldest first. */
  recent(): readonly CorrectionEvent[] {
    return this.events;
  }
}
