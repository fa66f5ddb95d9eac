/**
 * WebRTC leak rule: an ICE candidate address leaks when it is public and differs from
 * the address the server saw. Private, loopback and mDNS (`*.local`) candidates are
 * not leaks: they reveal nothing a website can use to find you.
 */
import { isPublicIp, normalizeIp } from './ip-address.ts';

/** The connection address of an ICE candidate line (`candidate:… <address> <port> typ …`), or the text itself when it is an address. */
export function candidateAddress(candidate: string): string | undefined {
  const text = candidate.trim().replace(/^a=/, '');
  const parts = text.startsWith('candidate:') ? text.split(/\s+/) : [text];
  const address = parts.length > 4 ? parts[4]! : parts[0]!;
  if (address.toLowerCase().endsWith('.local')) return undefined;
  return normalizeIp(address);
}

/** Public candidate addresses that differ from the server-seen address, without duplicates. */
export function webrtcLeaks(candidates: readonly string[], serverIp: string): string[] {
  const seen = normalizeIp(serverIp) ?? serverIp;
  const leaks = new Set<string>();
  for (const c of candidates) {
    const address = candidateAddress(c);
    if (address && address !== seen && isPublicIp(address)) leaks.add(address);
  }
  return [...leaks];
}
