/**
 * Whether the browser's timezone agrees with the address's, for the VPN score's
 * "Timezone mismatch" row. Two zones match when they have the same name or the same UTC
 * offset right now: a visitor in Berlin whose address maps to Paris, or in Detroit mapped
 * to New York, shows the same clock, and a VPN exit in the same offset gives no clock
 * evidence either way. Aliases (Asia/Calcutta, Asia/Kolkata) match the same way.
 * Pure (Intl only), shared with the browser.
 */

const MAX_ZONES = 1024;
const QUARTER_HOUR = 15 * 60 * 1000;

/** A zone's formatter (creating one costs tens of microseconds) and its last offset. */
interface ZoneEntry {
  formatter: Intl.DateTimeFormat | null;
  /** The quarter hour since the epoch `offset` was computed for. */
  quarter: number;
  offset: number;
}
const zones = new Map<string, ZoneEntry>();

function zoneEntry(zone: string): ZoneEntry {
  let entry = zones.get(zone);
  if (entry === undefined) {
    let formatter: Intl.DateTimeFormat | null = null;
    try {
      formatter = new Intl.DateTimeFormat('en-US', { timeZone: zone, timeZoneName: 'longOffset' });
    } catch { /* not an IANA zone */ }
    entry = { formatter, quarter: NaN, offset: 0 };
    // Zone names come from visitors too: bound the memory they can claim.
    if (zones.size >= MAX_ZONES) zones.clear();
    zones.set(zone, entry);
  }
  return entry;
}

/** The offset a formatter names at an instant ('GMT+05:30' → 330), or undefined when it is not whole minutes. */
function offsetAt(formatter: Intl.DateTimeFormat, at: number): number | undefined {
  const name = formatter.formatToParts(at).find((part) => part.type === 'timeZoneName')?.value ?? '';
  const match = /^GMT(?:([+-])(\d{2}):(\d{2}))?$/.exec(name);
  if (!match) return undefined;
  const minutes = match[1] ? Number(match[2]) * 60 + Number(match[3]) : 0;
  return match[1] === '-' ? -minutes : minutes;
}

/** Minutes east of UTC for a zone at an instant ('GMT+05:30' → 330), or undefined for a non-zone. */
export function utcOffsetMinutes(zone: string, at: number = Date.now()): number | undefined {
  const entry = zoneEntry(zone);
  if (!entry.formatter) return undefined;
  const quarter = Math.floor(at / QUARTER_HOUR);
  if (entry.quarter === quarter) return entry.offset;
  // Offsets have changed on quarter-hour instants (UTC) for decades, so the answer is kept
  // for the quarter hour, but only when the offset is the same at both of its ends: older
  // changes fell inside one (Kiritimati at 10:40 UTC on 1 October 1979, Monrovia at
  // 00:44:30 in 1972), and then each instant is asked on its own.
  const first = offsetAt(entry.formatter, quarter * QUARTER_HOUR);
  if (first !== undefined && first === offsetAt(entry.formatter, (quarter + 1) * QUARTER_HOUR - 1)) {
    entry.quarter = quarter;
    entry.offset = first;
    return first;
  }
  return offsetAt(entry.formatter, at);
}

/**
 * true when the zones match (same name, or same offset at `at`), false when they differ,
 * undefined when either is not a known IANA zone (then nothing can be concluded).
 */
export function timezonesMatch(a: string, b: string, at: number = Date.now()): boolean | undefined {
  if (a === b) return zoneEntry(a).formatter ? true : undefined;
  const offsetA = utcOffsetMinutes(a, at);
  const offsetB = utcOffsetMinutes(b, at);
  if (offsetA === undefined || offsetB === undefined) return undefined;
  return offsetA === offsetB;
}
