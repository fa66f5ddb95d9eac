/**
 * The WebRTC leak rule (spec section 5, "WebRTC IP leak detected"): the browser's ICE
 * probe gathered addresses, and a leak is one that is public and is not the address the
 * server saw. Private and link-local candidates, mDNS host names (`<uuid>.local`, what
 * browsers show instead of the LAN address) and unparseable strings are not leaks.
 * Pure, so the browser can show exactly which addresses leaked.
 */
import { formatIp, normalizeIp, parseIp, reservedKind } from './ip-address.ts';

/**
 * The address in a candidate: a bare address, `[v6]`, or a full ICE candidate line
 * (`candidate:1 1 udp 2122260223 203.0.113.7 54321 typ srflx ...`, address in field 5).
 */
function candidateAddress(candidate: string): string {
  const text = candidate.trim();
  if (/^(a=)?candidate:/i.test(text)) return text.split(/\s+/)[4] ?? '';
  return text.startsWith('[') && text.endsWith(']') ? text.slice(1, -1) : text;
}

/** The public addresses among `candidates` that differ from `ip`, canonical, each once. */
export function webrtcLeaks(candidates: readonly string[], ip: string): string[] {
  const seen = normalizeIp(ip);
  const leaks: string[] = [];
  for (const candidate of candidates) {
    const parsed = parseIp(candidateAddress(candidate));
    if (!parsed || reservedKind(parsed)) continue;
    const address = formatIp(parsed);
    if (address !== seen && !leaks.includes(address)) leaks.push(address);
  }
  return leaks;
}
