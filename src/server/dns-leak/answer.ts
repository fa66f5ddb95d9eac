/**
 * The DNS leak test's authoritative answers: one query in, at most one answer out, for one
 * zone (DNS_LEAK_ZONE) and nothing else. The query is checked with `dns-packet` (names,
 * pointers, EDNS); the answer is written here, because it must echo the question byte for
 * byte (the 0x20 case a resolver randomised comes back as it was sent) and name it by a
 * compression pointer.
 *
 * Size: an answer adds to its query at most the SOA (50 bytes, for the apex's SOA and every
 * negative answer) or its addresses (16 bytes per IPv4, 28 per IPv6; DNS_LEAK_ANSWER gives
 * at most two of each, config.ts), and an OPT record only to a query that had one. The
 * smallest query for the largest answer is the apex's SOA without EDNS: 16 + L bytes for a
 * zone of L bytes on the wire, answered with 66 + L (with two IPv6 addresses, ns.<zone>'s
 * AAAA is 19 + L bytes in, 75 + L out). That is 2.52 times for dns.example.com (33 in, 83
 * out; 2.56 with two IPv6 addresses, 36 in, 92 out) but 3.63 for a one-letter zone (19 in,
 * 69 out), and more with more addresses. So over
 * UDP no answer is sent larger than UDP_AMPLIFICATION (3) times its query: one that would be
 * goes as header, question and OPT with the TC bit (never larger than the query), and the
 * resolver asks again over TCP, whose answers are whole (src/server/dns-leak/answer.test.ts
 * builds the worst queries). A zone name of 7 characters or more (x.ab.io: 9 bytes on the
 * wire) never meets it, with two addresses of each family.
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
 *   DO bit copied); an answer over the UDP size it allows (512 without EDNS), or over
 *   UDP_AMPLIFICATION times its query, is sent as header and question with the TC bit, and
 *   the resolver asks again over TCP.
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
/** The UDP size this server advertises and honours at most: 1232 bytes fit an IPv6 packet of the minimum MTU unfragmented. */
const EDNS_SIZE = 1232;
/** Without EDNS, the classic limit. */
const CLASSIC_SIZE = 512;
/**
 * How many times its query's size an answer over UDP may be at most; past it, the answer is
 * truncated (TC). A spoofed query then buys its victim at most three times its own bytes.
 */
export const UDP_AMPLIFICATION = 3;
/** The largest name on the wire, in bytes, its length octets included. */
const MAX_NAME = 255;

/** A test's token: 128 random bits in lowercase hex (handlers/dns-leak-api.ts issues them). */
export const TOKEN = /^[0-9a-f]{32}$/;
/** The most names a token has (the extended test's). */
export const MAX_NAMES = 36;
/** A token's name's first label: the token, a hyphen, which of its names (1 to MAX_NAMES, no leading zero). */
const TOKEN_LABEL = /^([0-9a-f]{32})-([1-9][0-9]?)$/;

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

/** Writes a header: the query's id, QR, the opcode and RD copied, our flags and rcode, and the counts. */
function writeHeader(out: Buffer, query: Buffer, flags: number, rcode: number, qd: number, an: number, ns: number, ar: number): void {
  query.copy(out, 0, 0, 2);
  out.writeUInt16BE(QR | (query.readUInt16BE(2) & (0x7800 | RD)) | flags | rcode, 2);
  out.writeUInt16BE(qd, 4);
  out.writeUInt16BE(an, 6);
  out.writeUInt16BE(ns, 8);
  out.writeUInt16BE(ar, 10);
}

/** A bare header with an rcode: FORMERR and NOTIMP for what cannot be read or is not a query. */
function headerOnly(query: Buffer, rcode: number): Buffer {
  const out = Buffer.allocUnsafe(HEADER);
  writeHeader(out, query, 0, rcode, 0, 0, 0, 0);
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

/** The records of one section of an answer, already on the wire, and how many. */
interface Section { bytes: Buffer; count: number }
const NONE: Section = { bytes: Buffer.alloc(0), count: 0 };

/**
 * A zone's records, built once: every query for a name gets the same A or AAAA records (named
 * by a pointer to the question, always at byte 12), and its SOA and NS differ only in where
 * the zone's name sits in the question (at most 256 places).
 */
interface Records { a: Section; aaaa: Section; soa: Map<number, Section>; ns: Map<number, Section> }
const RECORDS = new WeakMap<DnsZone, Records>();

function recordsOf(zone: DnsZone): Records {
  let records = RECORDS.get(zone);
  if (!records) {
    const section = (type: number, list: Buffer[]): Section => ({ bytes: Buffer.concat(list.map((ip) => record(HEADER, type, ip))), count: list.length });
    records = { a: section(TYPE.A, zone.ipv4), aaaa: section(TYPE.AAAA, zone.ipv6), soa: new Map(), ns: new Map() };
    RECORDS.set(zone, records);
  }
  return records;
}

function soaAt(records: Records, zoneAt: number): Section {
  let found = records.soa.get(zoneAt);
  if (!found) records.soa.set(zoneAt, (found = { bytes: soa(zoneAt), count: 1 }));
  return found;
}

function nsAt(records: Records, zoneAt: number): Section {
  let found = records.ns.get(zoneAt);
  if (!found) records.ns.set(zoneAt, (found = { bytes: record(zoneAt, TYPE.NS, underZone('ns', zoneAt)), count: 1 }));
  return found;
}

/**
 * The answer, written into one buffer: header, the question as it came, the answer and
 * authority records, and an OPT record when the query had one (our UDP size, the extended
 * rcode BADVERS for an EDNS version other than 0, the DO bit copied). Past `limit`, header,
 * question and OPT only, with the TC bit.
 */
function reply(query: Buffer, question: Question, edns: Edns | undefined, limit: number, flags: number, rcode: number, answers: Section, authority: Section = NONE): Buffer {
  const optSize = edns ? 11 : 0;
  let size = HEADER + question.raw.length + answers.bytes.length + authority.bytes.length + optSize;
  const truncated = size > limit;
  if (truncated) size = HEADER + question.raw.length + optSize;
  const out = Buffer.allocUnsafe(size);
  writeHeader(out, query, truncated ? flags | TC : flags, rcode, 1, truncated ? 0 : answers.count, truncated ? 0 : authority.count, edns ? 1 : 0);
  let at = HEADER + question.raw.copy(out, HEADER);
  if (!truncated) {
    at += answers.bytes.copy(out, at);
    at += authority.bytes.copy(out, at);
  }
  if (edns) {
    out[at] = 0; // the root name
    out.writeUInt16BE(TYPE.OPT, at + 1);
    out.writeUInt16BE(EDNS_SIZE, at + 3);
    out.writeUInt8(edns.version === 0 ? 0 : 1, at + 5);
    out.writeUInt8(0, at + 6);
    out.writeUInt16BE(edns.dnssecOk ? dnsPacket.DNSSEC_OK : 0, at + 7);
    out.writeUInt16BE(0, at + 9);
  }
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
  return match && Number(match[2]) <= MAX_NAMES ? { kind: 'token', token: match[1]!, name: Number(match[2]) } : { kind: 'unknown' };
}

/**
 * The answer to one query over `transport`. Never throws on what the packet holds; a
 * query too short to have a header, or a response, gets nothing.
 */
export function answerQuery(packet: Buffer, zone: DnsZone, transport: 'udp' | 'tcp'): DnsReply {
  if (packet.length < HEADER || packet.readUInt16BE(2) & QR) return { answer: undefined };
  if ((packet.readUInt16BE(2) >> 11) & 0xf) return { answer: headerOnly(packet, RCODE.NOTIMP) };
  // One question, nothing in the answer and authority sections, at most one additional (OPT).
  if (packet.readUInt16BE(4) !== 1 || packet.readUInt16BE(6) || packet.readUInt16BE(8) || packet.readUInt16BE(10) > 1) return { answer: headerOnly(packet, RCODE.FORMERR) };
  const question = readQuestion(packet);
  if (!question) return { answer: headerOnly(packet, RCODE.FORMERR) };
  let edns: Edns | undefined;
  try {
    edns = ednsOf(dnsPacket.decode(packet));
  } catch {
    return { answer: headerOnly(packet, RCODE.FORMERR) };
  }
  const udpSize = edns ? Math.min(Math.max(edns.udpSize, CLASSIC_SIZE), EDNS_SIZE) : CLASSIC_SIZE;
  const limit = transport === 'tcp' ? 0xffff : Math.min(udpSize, UDP_AMPLIFICATION * packet.length);
  if (edns && edns.version !== 0) return { answer: reply(packet, question, edns, limit, 0, RCODE.NOERROR, NONE) }; // BADVERS, in the OPT record
  const place = question.klass === CLASS_IN ? placeOf(question.labels, zone) : undefined;
  if (!place) return { answer: reply(packet, question, edns, limit, 0, RCODE.REFUSED, NONE) };
  if (question.type >= META_TYPES && question.type <= 255) return { answer: reply(packet, question, edns, limit, AA, RCODE.NOTIMP, NONE) };
  const records = recordsOf(zone);
  const zoneAt = question.offsets[question.labels.length - zone.labels.length] ?? HEADER;
  let answers = NONE;
  if (place.kind === 'apex') answers = question.type === TYPE.SOA ? soaAt(records, zoneAt) : question.type === TYPE.NS ? nsAt(records, zoneAt) : NONE;
  else if (place.kind !== 'unknown') answers = question.type === TYPE.A ? records.a : question.type === TYPE.AAAA ? records.aaaa : NONE;
  // No record: NXDOMAIN for a name that does not exist, no data for one that does; either with the SOA.
  const rcode = place.kind === 'unknown' ? RCODE.NXDOMAIN : RCODE.NOERROR;
  const answer = reply(packet, question, edns, limit, AA, rcode, answers, answers.count ? NONE : soaAt(records, zoneAt));
  return place.kind === 'token' ? { answer, note: { token: place.token, name: place.name, ecs: edns?.ecs ?? null, dnssecOk: edns?.dnssecOk ?? false } } : { answer };
}
