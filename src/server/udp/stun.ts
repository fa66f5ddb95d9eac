/**
 * The server's own STUN responder (RFC 8489, which obsoletes RFC 5389; UDP only): it answers
 * each Binding request with the address and port the request came from, in an
 * XOR-MAPPED-ADDRESS. The WebRTC leak check asks it instead of a public STUN server, so the
 * visitor's address reaches no third party (docs/configuration.md: `STUN_PORT`).
 *
 * What arrives is untrusted, and its source may be spoofed: anything that is not a
 * well-formed STUN request is dropped without an answer, and the responder must be of no use
 * for reflecting a flood at someone else. An answer is at most 24 bytes larger than its
 * request (the worst case, a bare Binding request from IPv6: 20 bytes in, 44 out, 2.2x;
 * from IPv4 20 in, 32 out, 1.6x; src/server/udp/stun.test.ts), and each source (address, IPv6
 * /64) gets at most 20 answers a second after a burst of 40 from each process
 * (`STUN_BUDGET` below, udp/source-budget.ts). Nothing is answered to a source port under
 * 1024 (`STUN_MIN_SOURCE_PORT`): those are services' ports, where a spoofed request would
 * aim the answer at echo, chargen or NTP; a STUN client sends from an ephemeral port. The message loop (udp/responder.ts) applies
 * it, and keeps a bad packet or a failed send from ending the process. Checked against RFC 5769's
 * test vectors (its sample request, and the XOR-MAPPED-ADDRESS and FINGERPRINT of its responses).
 *
 * A Binding request with an attribute we must understand but do not gets a bare 420: its
 * ERROR-CODE without a reason text and without the UNKNOWN-ATTRIBUTES list the RFC asks
 * for, so that it is no larger than the request plus 4 bytes. Not answering at all would be smaller still, but a client
 * that gets no answer retransmits (seven requests over about 40 s with the standard timers)
 * before it gives up, so silence costs more packets than the bare 420, which tells it at
 * once; the client knows which attributes it sent.
 */
import { crc32 } from 'node:zlib';
import { parseIp } from '../../lib/ip-address.ts';
import { startUdpResponder, type UdpResponder } from './responder.ts';

const HEADER = 20;
const MAGIC_COOKIE = 0x2112a442;
const BINDING_REQUEST = 0x0001;
const BINDING_SUCCESS = 0x0101;
const BINDING_ERROR = 0x0111;
const XOR_MAPPED_ADDRESS = 0x0020;
const ERROR_CODE = 0x0009;
const FINGERPRINT = 0x8028;
const FINGERPRINT_XOR = 0x5354554e;

/**
 * Comprehension-required attributes (below 0x8000) a Binding request may carry that this
 * responder understands well enough to ignore: credentials it does not ask for (USERNAME,
 * MESSAGE-INTEGRITY, -SHA256, USERHASH, REALM, NONCE, PASSWORD-ALGORITHM) and ICE's
 * PRIORITY and USE-CANDIDATE. Any other one makes the request a 420.
 */
const UNDERSTOOD = new Set([0x0006, 0x0008, 0x0014, 0x0015, 0x001c, 0x001d, 0x001e, 0x0024, 0x0025]);

/** Pads a length to the 4-byte boundary every attribute value is aligned to. */
const padded = (length: number): number => (length + 3) & ~3;

/** What a packet asks for: a Binding answer, a 420, or nothing. */
type Verdict = { kind: 'binding' | 'unknown'; fingerprint: boolean } | undefined;

function fingerprintOf(message: Buffer, end: number): number {
  return (crc32(message.subarray(0, end)) ^ FINGERPRINT_XOR) >>> 0;
}

/** Checks the header and walks the attributes of a request; undefined means drop it. */
function judge(packet: Buffer): Verdict {
  if (packet.length < HEADER || packet.length > 1500) return undefined;
  const type = packet.readUInt16BE(0);
  const length = packet.readUInt16BE(2);
  // The two top bits are zero in every STUN message; the length covers exactly the attributes.
  if (type & 0xc000 || length % 4 !== 0 || length !== packet.length - HEADER) return undefined;
  if (packet.readUInt32BE(4) !== MAGIC_COOKIE || type !== BINDING_REQUEST) return undefined;
  let unknown = false;
  let fingerprint = false;
  for (let at = HEADER; at < packet.length; ) {
    if (fingerprint || at + 4 > packet.length) return undefined; // FINGERPRINT must come last
    const attr = packet.readUInt16BE(at);
    const size = packet.readUInt16BE(at + 2);
    const next = at + 4 + padded(size);
    if (next > packet.length) return undefined;
    if (attr === FINGERPRINT) {
      if (size !== 4 || packet.readUInt32BE(at + 4) !== fingerprintOf(packet, at)) return undefined;
      fingerprint = true;
    } else if (attr < 0x8000 && !UNDERSTOOD.has(attr)) {
      unknown = true;
    }
    at = next;
  }
  return { kind: unknown ? 'unknown' : 'binding', fingerprint };
}

function attribute(type: number, value: Buffer): Buffer {
  const out = Buffer.alloc(4 + padded(value.length));
  out.writeUInt16BE(type, 0);
  out.writeUInt16BE(value.length, 2);
  value.copy(out, 4);
  return out;
}

/** XOR-MAPPED-ADDRESS: port and address XORed with the magic cookie (and, for IPv6, the transaction id). */
function xorMappedAddress(address: string, port: number, transactionId: Buffer): Buffer | undefined {
  // parseIp reads a dual-stack socket's ::ffff:a.b.c.d as the IPv4 address it is.
  const parsed = parseIp(address.split('%')[0]!);
  if (!parsed) return undefined;
  const value = Buffer.alloc(parsed.version === 4 ? 8 : 20);
  value.writeUInt8(parsed.version === 4 ? 1 : 2, 1);
  value.writeUInt16BE(port ^ (MAGIC_COOKIE >>> 16), 2);
  const key = Buffer.alloc(16);
  key.writeUInt32BE(MAGIC_COOKIE, 0);
  transactionId.copy(key, 4);
  if (parsed.version === 4) value.writeUInt32BE((parsed.value ^ MAGIC_COOKIE) >>> 0, 4);
  else {
    value.writeBigUInt64BE(parsed.value >> 64n, 4);
    value.writeBigUInt64BE(BigInt.asUintN(64, parsed.value), 12);
    for (let i = 0; i < 16; i++) value[4 + i] = value[4 + i]! ^ key[i]!;
  }
  return attribute(XOR_MAPPED_ADDRESS, value);
}

function message(type: number, request: Buffer, attributes: Buffer[], fingerprint: boolean): Buffer {
  const body = Buffer.concat(attributes);
  const header = Buffer.alloc(HEADER);
  header.writeUInt16BE(type, 0);
  header.writeUInt16BE(body.length + (fingerprint ? 8 : 0), 2);
  request.copy(header, 4, 4, HEADER); // magic cookie and transaction id
  const out = Buffer.concat([header, body]);
  if (!fingerprint) return out;
  // RFC 8489 section 14.7: CRC-32 of everything before it, with the length already counting it.
  const value = Buffer.alloc(4);
  value.writeUInt32BE(fingerprintOf(out, out.length));
  return Buffer.concat([out, attribute(FINGERPRINT, value)]);
}

/**
 * The answer to one UDP packet from `address`:`port`, or undefined when it gets none
 * (not STUN, not a Binding request, malformed). A FINGERPRINT in the request gets one back.
 */
export function stunAnswer(packet: Buffer, address: string, port: number): Buffer | undefined {
  const verdict = judge(packet);
  if (!verdict) return undefined;
  if (verdict.kind === 'binding') {
    const mapped = xorMappedAddress(address, port, packet.subarray(8, HEADER));
    return mapped && message(BINDING_SUCCESS, packet, [mapped], verdict.fingerprint);
  }
  // Class 4, number 20, and no reason text (the module header says why).
  return message(BINDING_ERROR, packet, [attribute(ERROR_CODE, Buffer.from([0, 0, 4, 20]))], verdict.fingerprint);
}

/** A listening responder: its port, its counts and its /healthz line. */
export type StunServer = UdpResponder;

/**
 * Each source's budget: a browser's ICE gathering sends a handful of requests. At most 50,000
 * sources are tracked, a few MB of heap (see docs/benchmarks.md, "Memory bounds").
 */
export const STUN_BUDGET = { perSecond: 20, burst: 40, maxSources: 50_000 };

/** The lowest source port answered: below it are the well-known services' ports (udp/responder.ts). */
export const STUN_MIN_SOURCE_PORT = 1024;

/**
 * Starts the responder on `host` (an IPv6 host such as `::` takes both families) and
 * `port` (0: a free port, for tests). Rejects when the port cannot be bound.
 */
export function startStunServer(host: string, port: number): Promise<StunServer> {
  return startUdpResponder(host, port, {
    name: 'stun',
    answer: (packet, peer) => stunAnswer(packet, peer.address, peer.port),
    budget: STUN_BUDGET,
    minSourcePort: STUN_MIN_SOURCE_PORT,
  });
}
