/**
 * The DNS leak test's authoritative answers: one query in, at most one answer out, for one
 * zone (DNS_LEAK_ZONE) and nothing else. The query is checked with `dns-packet` (names,
 * pointers, EDNS); the answer is written here, because it must echo the question byte for
 * byte (the 0x20 case a resolver randomised comes back as it was sent) and name it by a
 * compression pointer, which keeps every answer within 50 bytes of its query with one
 * answer address (16 more per further IPv4 address, 28 per IPv6): 2.52 times its size at
 * worst, the apex's SOA for a 15-byte zone (src/server/dns/answer.test.ts).
 *
 * - `<token>-<n>.<zone>` (32 hex digits, n from 1 to 36) and `ns.<zone>`: A and AAAA give
 *   the answer addresses (DNS_LEAK_ANSWER), other types no data; a token's name is noted.
 * - The apex: SOA and NS (`ns.<zone>`, `hostmaster.<zone>`); other types no data.
 * - Any other name in the zone: NXDOMAIN, with the SOA for negative caching.
 * - A name outside the zone, or a class other than IN: REFUSED (no recursion, ever).
 * - ANY, AXFR, IXFR and the other meta types: NOTIMP. An opcode other than QUERY: NOTIMP.
 * - Not one question, records where a query has none, a pointer in the question, a name
 *   dns-packet cannot read: FORMERR, header only. Under 12 bytes, or a response: nothing.
 * - EDNS: an OPT record in the query gets one back (version 0 only: BADVERS otherwise, the
 *   DO bit copied); an answer over the UDP size it allows (512 without EDNS) is sent as
 *   header and question with the TC bit, and the resolver asks again over TCP.
 */
import * as dnsPacket from 'dns-packet';

const HEADER = 12;
const QR = 0x8000;
const AA = 0x0400;
const TC = 0x0200;
const RD = 0x0100;
const RCODE = { NOERROR: 0, FORMERR: 1, NXDOMAIN: 3, NOTIMP: 4, REFUSED: 5 } as const;
const TYPE = { A: 1, NS: 2, SOA: 6, AAAA: 28, OPT: 41 } as const;
const CLASS_IN = 1;
/** Types 251 to 255 ask for more than one record set (IXFR, AXFR, MAILB, MAILA, ANY). */
const META_TYPES = 251;
/** Seconds every record and negative answer may be cached: the test's names are never asked twice. */
const TTL = 60;
/** The UDP size this server advertises and honours at most (the DNS flag day's 1232). */
const EDNS_SIZE = 1232;
/** Without EDNS, the classic limit. */
const CLASSIC_SIZE = 512;
/** The largest name on the wire (RFC 1035, section 3.1). */
const MAX_NAME = 255;

/** A token's name: the token and which of its names (1 to 36) was asked. */
const TOKEN_LABEL = /^([0-9a-f]{32})-([1-9]|[12][0-9]|3[0-6])$/;

/** The zone as the responder answers it. */
export interface DnsZone {
  /** Lowercase labels of the apex, e.g. ['dns', 'example', 'com']. */
  labels: string[];
  /** Addresses A queries get (4 bytes each). */
  ipv4: Buffer[];
  /** Addresses AAAA queries get (16 bytes each). */
  ipv6: Buffer[];
}

/** What a query for one of a token's names tells: the token, which name, EDNS Client Subnet and the DO bit. */
export interface QueryNote {
  token: string;
  /** Which of the token's names (1 to 36). */
  name: number;
  /** The EDNS Client Subnet the resolver forwarded ('203.0.113.0/24'), or null. */
  ecs: string | null;
  dnssecOk: boolean;
}

/** The answer to send (none: drop the packet) and the note to take, if the query named a token. */
export interface DnsReply {
  answer: Buffer | undefined;
  note?: QueryNote;
}

/** The question as it came: its raw bytes (from the header's end), its lowercase labels, type and class. */
interface Question {
  raw: Buffer;
  labels: string[];
  /** Where each label starts in the packet (for pointers to the zone's part of the name). */
  offsets: number[];
  type: number;
  klass: number;
}

/** Walks the one question's name by hand: no compression pointer, 255 bytes at most. */
function readQuestion(packet: Buffer): Question | undefined {
  const labels: string[] = [];
  const offsets: number[] = [];
  let at = HEADER;
  for (;;) {
    if (at >= packet.length) return undefined;
    const length = packet[at]!;
    if (length === 0) break;
    // A pointer (or the long-dead extended label types) in a query's only name: no resolver writes one.
    if (length & 0xc0 || at + 1 + length > packet.length) return undefined;
    offsets.push(at);
    labels.push(packet.toString('latin1', at + 1, at + 1 + length).toLowerCase());
    at += 1 + length;
  }
  const end = at + 5;
  if (end - HEADER - 4 > MAX_NAME || end > packet.length) return undefined;
  return { raw: packet.subarray(HEADER, end), labels, offsets, type: packet.readUInt16BE(at + 1), klass: packet.readUInt16BE(at + 3) };
}

/** The query's EDNS, when it has an OPT record. */
interface Edns { version: number; udpSize: number; dnssecOk: boolean; ecs: string | null }

function ednsOf(decoded: dnsPacket.DecodedPacket): Edns | undefined {
  const opt = decoded.additionals?.find((r): r is dnsPacket.OptAnswer => r.type === 'OPT');
  if (!opt) return undefined;
  const subnet = opt.options.find((o) => o.code === 8) as { ip?: string; sourcePrefixLength?: number } | undefined;
  return {
    version: opt.ednsVersion,
    udpSize: opt.udpPayloadSize,
    dnssecOk: opt.flag_do,
    ecs: subnet?.ip ? `${subnet.ip}/${subnet.sourcePrefixLength ?? 0}` : null,
  };
}

/** A header: the query's id, QR, the opcode and RD copied, our flags and rcode, and the counts. */
function header(query: Buffer, flags: number, rcode: number, counts: [qd: number, an: number, ns: number, ar: number]): Buffer {
  const out = Buffer.alloc(HEADER);
  query.copy(out, 0, 0, 2);
  out.writeUInt16BE(QR | (query.readUInt16BE(2) & (0x7800 | RD)) | flags | rcode, 2);
  counts.forEach((count, i) => out.writeUInt16BE(count, 4 + 2 * i));
  return out;
}

/** A resource record named by a pointer to `nameAt` in the packet. */
function record(nameAt: number, type: number, rdata: Buffer): Buffer {
  const out = Buffer.alloc(12 + rdata.length);
  out.writeUInt16BE(0xc000 | nameAt, 0);
  out.writeUInt16BE(type, 2);
  out.writeUInt16BE(CLASS_IN, 4);
  out.writeUInt32BE(TTL, 6);
  out.writeUInt16BE(rdata.length, 10);
  rdata.copy(out, 12);
  return out;
}

/** A one-label name followed by a pointer to the zone: `ns.<zone>`, `hostmaster.<zone>`. */
const underZone = (label: string, zoneAt: number): Buffer =>
  Buffer.concat([Buffer.from([label.length]), Buffer.from(label, 'latin1'), Buffer.from([0xc0 | (zoneAt >> 8), zoneAt & 0xff])]);

function soa(zoneAt: number): Buffer {
  const numbers = Buffer.alloc(20);
  // serial, refresh, retry, expire, and the negative-caching TTL.
  [1, 3600, 600, 86_400, TTL].forEach((n, i) => numbers.writeUInt32BE(n, 4 * i));
  return record(zoneAt, TYPE.SOA, Buffer.concat([underZone('ns', zoneAt), underZone('hostmaster', zoneAt), numbers]));
}

/** The OPT record of an answer: our UDP size, an extended rcode (BADVERS is 1), the DO bit copied. */
function opt(extendedRcode: number, dnssecOk: boolean): Buffer {
  const out = Buffer.alloc(11);
  out.writeUInt16BE(TYPE.OPT, 1);
  out.writeUInt16BE(EDNS_SIZE, 3);
  out.writeUInt8(extendedRcode, 5);
  out.writeUInt16BE(dnssecOk ? dnsPacket.DNSSEC_OK : 0, 7);
  return out;
}

/** What the name is within the zone, or undefined outside it. */
type Place = { kind: 'apex' } | { kind: 'ns' } | { kind: 'token'; token: string; name: number } | { kind: 'unknown' };

function placeOf(labels: string[], zone: DnsZone): Place | undefined {
  const inside = labels.length - zone.labels.length;
  if (inside < 0 || zone.labels.some((label, i) => labels[inside + i] !== label)) return undefined;
  if (inside === 0) return { kind: 'apex' };
  if (inside > 1) return { kind: 'unknown' };
  if (labels[0] === 'ns') return { kind: 'ns' };
  const match = TOKEN_LABEL.exec(labels[0]!);
  return match ? { kind: 'token', token: match[1]!, name: Number(match[2]) } : { kind: 'unknown' };
}

/**
 * The answer to one query over `transport`. Never throws on what the packet holds; a
 * query too short to have a header, or a response, gets nothing.
 */
export function answerQuery(packet: Buffer, zone: DnsZone, transport: 'udp' | 'tcp'): DnsReply {
  if (packet.length < HEADER || packet.readUInt16BE(2) & QR) return { answer: undefined };
  const formErr = { answer: header(packet, 0, RCODE.FORMERR, [0, 0, 0, 0]) };
  if ((packet.readUInt16BE(2) >> 11) & 0xf) return { answer: header(packet, 0, RCODE.NOTIMP, [0, 0, 0, 0]) };
  // One question, nothing in the answer and authority sections, at most one additional (OPT).
  if (packet.readUInt16BE(4) !== 1 || packet.readUInt16BE(6) || packet.readUInt16BE(8) || packet.readUInt16BE(10) > 1) return formErr;
  const question = readQuestion(packet);
  if (!question) return formErr;
  let edns: Edns | undefined;
  try {
    edns = ednsOf(dnsPacket.decode(packet));
  } catch {
    return formErr;
  }
  const dnssecOk = edns?.dnssecOk ?? false;
  const optRecord = edns ? [opt(edns.version === 0 ? 0 : 1, dnssecOk)] : [];
  const reply = (flags: number, rcode: number, answers: Buffer[], authority: Buffer[] = []): Buffer => {
    const full = Buffer.concat([
      header(packet, flags, rcode, [1, answers.length, authority.length, optRecord.length]), question.raw, ...answers, ...authority, ...optRecord,
    ]);
    const limit = transport === 'tcp' ? 0xffff : edns ? Math.min(Math.max(edns.udpSize, CLASSIC_SIZE), EDNS_SIZE) : CLASSIC_SIZE;
    if (full.length <= limit) return full;
    return Buffer.concat([header(packet, flags | TC, rcode, [1, 0, 0, optRecord.length]), question.raw, ...optRecord]);
  };
  if (edns && edns.version !== 0) return { answer: reply(0, RCODE.NOERROR, []) }; // BADVERS, in the OPT record
  const place = question.klass === CLASS_IN ? placeOf(question.labels, zone) : undefined;
  if (!place) return { answer: reply(0, RCODE.REFUSED, []) };
  if (question.type >= META_TYPES && question.type <= 255) return { answer: reply(AA, RCODE.NOTIMP, []) };
  const zoneAt = question.offsets[question.labels.length - zone.labels.length] ?? HEADER;
  const noData = () => reply(AA, RCODE.NOERROR, [], [soa(zoneAt)]);
  const addresses = () => {
    const list = question.type === TYPE.A ? zone.ipv4 : question.type === TYPE.AAAA ? zone.ipv6 : [];
    return list.length ? reply(AA, RCODE.NOERROR, list.map((ip) => record(HEADER, question.type, ip))) : noData();
  };
  switch (place.kind) {
    case 'apex':
      if (question.type === TYPE.SOA) return { answer: reply(AA, RCODE.NOERROR, [soa(zoneAt)]) };
      if (question.type === TYPE.NS) return { answer: reply(AA, RCODE.NOERROR, [record(zoneAt, TYPE.NS, underZone('ns', zoneAt))]) };
      return { answer: noData() };
    case 'ns':
      return { answer: addresses() };
    case 'token':
      return { answer: addresses(), note: { token: place.token, name: place.name, ecs: edns?.ecs ?? null, dnssecOk } };
    case 'unknown':
      return { answer: reply(AA, RCODE.NXDOMAIN, [], [soa(zoneAt)]) };
  }
}
