/**
 * Round-trip time of a lookup request, measured, never estimated: the time from
 * sending the request to the first response byte, minus the server's own work that it
 * reports as `Server-Timing: lookup;dur=<ms>`. Pure; the browser passes its entry in.
 */

/** The parts of a PerformanceResourceTiming entry the measurement reads. */
export interface TimingEntry {
  requestStart: number;
  responseStart: number;
  serverTiming?: ReadonlyArray<{ name: string; duration: number }>;
}

/** Milliseconds of network round trip, or null when the entry cannot tell (no timing, no server duration). */
export function roundTripMs(entry: TimingEntry): number | null {
  const server = entry.serverTiming?.find((t) => t.name === 'lookup');
  if (!server || !(entry.requestStart > 0) || !(entry.responseStart >= entry.requestStart)) return null;
  return Math.max(0, Math.round(entry.responseStart - entry.requestStart - server.duration));
}
