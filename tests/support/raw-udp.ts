/**
 * UDP packets node cannot send: a source port of 0, which is legal on the wire but which no
 * ordinary socket uses. Sent through a raw socket by python3 (node has no raw sockets), so
 * it needs python3 and root (CAP_NET_RAW); tests skip with `rawUdpMissing()`'s reason
 * otherwise, except under CI.
 */
import { spawnSync } from 'node:child_process';
import { underCi } from './required-service.ts';

/** Builds the UDP header by hand: source port, destination port, length, checksum 0 ("none", legal over IPv4). */
const SEND = `
import socket, struct, sys
source, port, payload = int(sys.argv[1]), int(sys.argv[2]), bytes.fromhex(sys.argv[3])
s = socket.socket(socket.AF_INET, socket.SOCK_RAW, socket.IPPROTO_UDP)
s.sendto(struct.pack('!HHHH', source, port, 8 + len(payload), 0) + payload, ('127.0.0.1', 0))
`;

/**
 * Why raw UDP cannot be sent from here (no python3, not root), or undefined when it can.
 * Under CI (any non-empty CI) it throws instead: CI runs as root with Debian's python3, so a
 * skip there would hide the one test of the real packet.
 */
export function rawUdpMissing(): string | undefined {
  const why = rawUdpProbe();
  if (why && underCi()) throw new Error(`raw UDP is required under CI: ${why}`);
  return why;
}

function rawUdpProbe(): string | undefined {
  const probe = spawnSync('python3', ['-c', 'import socket; socket.socket(socket.AF_INET, socket.SOCK_RAW, socket.IPPROTO_UDP)'], { encoding: 'utf8' });
  if (probe.error) return `python3 is not available (${probe.error.message}): cannot send a UDP packet from source port 0`;
  if (probe.status !== 0) return `cannot open a raw socket (root or CAP_NET_RAW is needed): ${probe.stderr.trim().split('\n').at(-1)}`;
  return undefined;
}

/** Sends `payload` to 127.0.0.1:`port` over IPv4 from 127.0.0.1, source port `sourcePort` (0 included). */
export function sendRawUdp(sourcePort: number, port: number, payload: Buffer): void {
  const sent = spawnSync('python3', ['-c', SEND, String(sourcePort), String(port), payload.toString('hex')], { encoding: 'utf8' });
  if (sent.error || sent.status !== 0) throw new Error(`raw UDP send failed: ${sent.error?.message ?? sent.stderr}`);
}
