import * as dnsPacket from 'dns-packet';
import { describe, expect, it } from 'vitest';
import { answerQuery, UDP_AMPLIFICATION, type DnsZone } from './answer.ts';

const ZONE: DnsZone = { labels: ['dns', 'example', 'com'], ipv4: [Buffer.from([192, 0, 2, 1])], ipv6: [Buffer.from('20010db8000000000000000000000001', 'hex')] };
const TOKEN = '0123456789abcdef0123456789abcdef';

function query(name: string, type: string = 'A', more: Partial<dnsPacket.Packet> = {}): Buffer {
  return dnsPacket.encode({ type: 'query', id: 4242, flags: dnsPacket.RECURSION_DESIRED, questions: [{ name, type: type as 'A', class: 'IN' }], ...more });
}
const edns = (udpPayloadSize: number, more: Record<string, unknown> = {}) =>
  ({ additionals: [{ type: 'OPT', name: '.', udpPayloadSize, flags: 0, options: [], ...more } as unknown as dnsPacket.Answer] });
/** The decoded answer, with the fields dns-packet decodes but its types leave out. */
const decode = (answer: Buffer | undefined) => dnsPacket.decode(answer!) as Omit<dnsPacket.DecodedPacket, 'answers'> & { rcode: string; answers: Array<{ type: string; name: string; data?: unknown }> };

describe('answerQuery: what each name and type gets', () => {
  it.each<[string, string, string, string, string[]]>([
    ['a token name, A: the IPv4 answer', `${TOKEN}-1.dns.example.com`, 'A', 'NOERROR', ['192.0.2.1']],
    ['a token name, AAAA: the IPv6 answer', `${TOKEN}-6.dns.example.com`, 'AAAA', 'NOERROR', ['2001:db8::1']],
    ['the 36th name (the last of the extended test)', `${TOKEN}-36.dns.example.com`, 'A', 'NOERROR', ['192.0.2.1']],
    ['a 37th name is not one', `${TOKEN}-37.dns.example.com`, 'A', 'NXDOMAIN', []],
    ['name 0 is not one', `${TOKEN}-0.dns.example.com`, 'A', 'NXDOMAIN', []],
    ['a name with a leading zero is not one (one spelling per name)', `${TOKEN}-07.dns.example.com`, 'A', 'NXDOMAIN', []],
    ['name 10 is one', `${TOKEN}-10.dns.example.com`, 'A', 'NOERROR', ['192.0.2.1']],
    ['a token of 31 digits is not one', `${TOKEN.slice(1)}-1.dns.example.com`, 'A', 'NXDOMAIN', []],
    ['a name below a token name is unknown', `x.${TOKEN}-1.dns.example.com`, 'A', 'NXDOMAIN', []],
    ['ns.<zone>, A: the answer address', 'ns.dns.example.com', 'A', 'NOERROR', ['192.0.2.1']],
    ['a token name, TXT: no data', `${TOKEN}-1.dns.example.com`, 'TXT', 'NOERROR', []],
    ['the apex, A: no data', 'dns.example.com', 'A', 'NOERROR', []],
    ['another name in the zone: NXDOMAIN', 'www.dns.example.com', 'A', 'NXDOMAIN', []],
    ['the parent of the zone: REFUSED', 'example.com', 'A', 'REFUSED', []],
    ['a name that only ends like the zone: REFUSED', 'xdns.example.com', 'A', 'REFUSED', []],
    ['a name elsewhere: REFUSED (no recursion)', 'www.google.com', 'A', 'REFUSED', []],
    ['the root: REFUSED', '.', 'NS', 'REFUSED', []],
    ['ANY: NOTIMP', `${TOKEN}-1.dns.example.com`, 'ANY', 'NOTIMP', []],
    ['AXFR of the zone: NOTIMP', 'dns.example.com', 'AXFR', 'NOTIMP', []],
  ])('%s', (_, name, type, rcode, data) => {
    const reply = decode(answerQuery(query(name, type), ZONE, 'udp').answer);
    expect(reply.rcode).toBe(rcode);
    expect(reply.id).toBe(4242);
    expect(reply.flag_qr).toBe(true);
    expect(reply.flag_ra).toBe(false);
    expect(reply.flag_rd).toBe(true);
    expect(reply.flag_aa).toBe(rcode !== 'REFUSED');
    expect(reply.questions).toEqual([{ name: name === '.' ? '.' : name, type, class: 'IN' }]);
    expect(reply.answers.map((a) => a.data)).toEqual(data);
    // A negative answer in the zone carries its SOA, for negative caching.
    const negative = rcode === 'NXDOMAIN' || (rcode === 'NOERROR' && data.length === 0);
    expect(reply.authorities!.map((a) => [a.type, a.name])).toEqual(negative ? [['SOA', 'dns.example.com']] : []);
  });

  it('answers SOA and NS at the apex, naming ns.<zone> and hostmaster.<zone>', () => {
    const soa = decode(answerQuery(query('dns.example.com', 'SOA'), ZONE, 'udp').answer);
    expect(soa.answers).toMatchObject([{ type: 'SOA', name: 'dns.example.com', data: { mname: 'ns.dns.example.com', rname: 'hostmaster.dns.example.com', minimum: 60 } }]);
    const ns = decode(answerQuery(query('dns.example.com', 'NS'), ZONE, 'udp').answer);
    expect(ns.answers).toMatchObject([{ type: 'NS', name: 'dns.example.com', data: 'ns.dns.example.com' }]);
  });

  it('gives back the question byte for byte, 0x20 case included, and matches it without case', () => {
    const mixed = `${TOKEN.toUpperCase().slice(0, 16)}${TOKEN.slice(16)}-2.DnS.eXaMpLe.CoM`;
    const sent = query(mixed);
    const { answer, note } = answerQuery(sent, ZONE, 'udp');
    expect(answer!.subarray(12, sent.length)).toEqual(sent.subarray(12));
    expect(decode(answer).answers![0]).toMatchObject({ name: mixed, data: '192.0.2.1' });
    expect(note).toEqual({ token: TOKEN, name: 2, ecs: null, dnssecOk: false });
  });

  it('notes a token for any type, with the Client Subnet and the DO bit', () => {
    const withEdns = query(`${TOKEN}-3.dns.example.com`, 'HTTPS', edns(1232, {
      flags: dnsPacket.DNSSEC_OK, options: [{ code: 8, ip: '203.0.113.0', sourcePrefixLength: 24, scopePrefixLength: 0 }],
    }));
    const { answer, note } = answerQuery(withEdns, ZONE, 'udp');
    expect(note).toEqual({ token: TOKEN, name: 3, ecs: '203.0.113.0/24', dnssecOk: true });
    expect(decode(answer).additionals).toMatchObject([{ type: 'OPT', udpPayloadSize: 1232, flag_do: true }]);
  });

  it('takes no note for the names that are not a token\'s', () => {
    for (const name of ['ns.dns.example.com', 'dns.example.com', `${TOKEN}-1.example.org`, `${TOKEN}-37.dns.example.com`]) {
      expect(answerQuery(query(name), ZONE, 'udp').note).toBeUndefined();
    }
  });
});

describe('answerQuery: malformed and unusual queries', () => {
  const header = (flags: number, counts: number[]): Buffer => {
    const out = Buffer.alloc(12);
    out.writeUInt16BE(7, 0);
    out.writeUInt16BE(flags, 2);
    counts.forEach((c, i) => out.writeUInt16BE(c, 4 + 2 * i));
    return out;
  };
  const rcodeOf = (answer: Buffer | undefined) => (answer ? answer.readUInt16BE(2) & 0xf : 'none');

  it.each<[string, Buffer, number | 'none', number]>([
    ['under 12 bytes: nothing', Buffer.alloc(11), 'none', 0],
    ['a response (QR set): nothing, so two servers never ping-pong', Buffer.concat([header(0x8000, [1, 0, 0, 0]), query('a.dns.example.com').subarray(12)]), 'none', 0],
    ['no question: FORMERR', header(0, [0, 0, 0, 0]), 1, 12],
    ['two questions: FORMERR', header(0, [2, 0, 0, 0]), 1, 12],
    ['1,000 questions: FORMERR, header only', Buffer.concat([header(0, [1000, 0, 0, 0]), Buffer.alloc(5000)]), 1, 12],
    ['an answer record in a query: FORMERR', Buffer.concat([header(0, [1, 1, 0, 0]), query('a.dns.example.com').subarray(12)]), 1, 12],
    ['two additional records: FORMERR', Buffer.concat([header(0, [1, 0, 0, 2]), query('a.dns.example.com').subarray(12)]), 1, 12],
    ['a question cut short: FORMERR', query('a.dns.example.com').subarray(0, 20), 1, 12],
    ['a pointer in the question: FORMERR', Buffer.concat([header(0, [1, 0, 0, 0]), Buffer.from([0xc0, 12, 0, 1, 0, 1])]), 1, 12],
    ['a pointer loop in the question: FORMERR', Buffer.concat([header(0, [1, 0, 0, 0]), Buffer.from([1, 0x61, 0xc0, 12, 0, 1, 0, 1])]), 1, 12],
    ['an opcode other than QUERY (NOTIFY): NOTIMP', Buffer.concat([header(4 << 11, [1, 0, 0, 0]), query('a.dns.example.com').subarray(12)]), 4, 12],
    ['a class other than IN (CHAOS version.bind): REFUSED', dnsPacket.encode({ type: 'query', id: 1, questions: [{ name: 'version.bind', type: 'TXT', class: 'CH' }] }), 5, 30],
  ])('%s', (_, packet, rcode, size) => {
    const { answer, note } = answerQuery(packet, ZONE, 'udp');
    expect(rcodeOf(answer)).toBe(rcode);
    expect(answer?.length ?? 0).toBe(size);
    expect(note).toBeUndefined();
  });

  it('answers a name of 255 bytes (the most there is) and refuses one longer', () => {
    // Three labels of 63 bytes and one of 45, then dns.example.com: 255 bytes on the wire.
    const longest = ['a'.repeat(63), 'b'.repeat(63), 'c'.repeat(63), 'd'.repeat(45), 'dns', 'example', 'com'].join('.');
    expect(query(longest).length - 12 - 4).toBe(255);
    expect(rcodeOf(answerQuery(query(longest), ZONE, 'udp').answer)).toBe(3);
    const raw = Buffer.from(query(longest));
    // One byte more in the fourth label, written by hand (dns-packet will not encode it).
    const tooLong = Buffer.concat([raw.subarray(0, 12 + 192), Buffer.from([46]), Buffer.alloc(46, 0x64), raw.subarray(12 + 192 + 46)]);
    expect(rcodeOf(answerQuery(tooLong, ZONE, 'udp').answer)).toBe(1);
  });

  it('answers an EDNS version it does not know with BADVERS in its OPT record', () => {
    const reply = decode(answerQuery(query(`${TOKEN}-1.dns.example.com`, 'A', edns(1232, { ednsVersion: 1 })), ZONE, 'udp').answer);
    expect(reply.answers).toEqual([]);
    expect(reply.additionals).toMatchObject([{ type: 'OPT', extendedRcode: 1 }]);
  });
});

describe('answerQuery: size', () => {
  const many: DnsZone = { ...ZONE, ipv4: Array.from({ length: 40 }, (_, i) => Buffer.from([192, 0, 2, i])) };
  const name = `${TOKEN}-1.dns.example.com`;
  /** An EDNS option of `bytes` bytes that means nothing: a query as large as a third of the 40 addresses' answer. */
  const padded = (udpPayloadSize: number, bytes: number) => edns(udpPayloadSize, { options: [{ code: 65001, data: Buffer.alloc(bytes) }] });

  it.each<[string, Partial<dnsPacket.Packet>, 'udp' | 'tcp', boolean]>([
    ['over 512 bytes without EDNS: truncated over UDP', {}, 'udp', true],
    ['within the 1232 bytes EDNS allows and 3 times the query: whole', padded(4096, 170), 'udp', false],
    ['within the 1232 bytes EDNS allows but over 3 times the query: truncated', padded(4096, 150), 'udp', true],
    ['an EDNS size under 512 counts as 512: truncated', padded(100, 170), 'udp', true],
    ['over TCP: whole, whatever the size', {}, 'tcp', false],
  ])('%s', (_, more, transport, truncated) => {
    const q = query(name, 'A', more);
    const answer = answerQuery(q, many, transport).answer!;
    const reply = decode(answer);
    expect(reply.flag_tc).toBe(truncated);
    expect(reply.answers!.length).toBe(truncated ? 0 : 40);
    expect(reply.questions![0]!.name).toBe(name);
    if (truncated) expect(answer.length).toBeLessThanOrEqual(q.length);
  });

  /** The smallest query for each kind of answer, without and with the smallest OPT record. */
  const smallest = (zone: string) => [`${TOKEN}-1.${zone}`, `ns.${zone}`, zone, `a.${zone}`].flatMap((n) =>
    ['A', 'AAAA', 'SOA', 'NS', 'TXT', 'ANY'].flatMap((type) => [query(n, type), query(n, type, edns(1232))]));
  const two = (zone: string): DnsZone => ({
    labels: zone.split('.'),
    ipv4: [Buffer.from([192, 0, 2, 1]), Buffer.from([192, 0, 2, 2])],
    ipv6: ['20010db8000000000000000000000001', '20010db8000000000000000000000002'].map((h) => Buffer.from(h, 'hex')),
  });
  const ratio = (q: Buffer, zone: DnsZone, transport: 'udp' | 'tcp') => answerQuery(q, zone, transport).answer!.length / q.length;

  it.each<[string, string, string]>([
    // 16 + 3 bytes in for the apex's SOA: 69 out over TCP, 3.63 times.
    ['a one-letter zone', 'a', '3.63'],
    ['a two-label one', 'x.io', '3.27'],
    ['x.ab.io: the shortest zone that meets no truncation', 'x.ab.io', '3.00'],
    // ns.<zone>'s two AAAA records: 36 bytes in, 92 out (the SOA: 33 in, 83 out, 2.52 times).
    ['dns.example.com', 'dns.example.com', '2.56'],
  ])('sends over UDP at most 3 times the query, with 2 addresses of each family: %s (%s; over TCP %s times at worst)', (_, zone, overTcp) => {
    const z = two(zone);
    const queries = smallest(zone);
    expect(Math.max(...queries.map((q) => ratio(q, z, 'udp')))).toBeLessThanOrEqual(UDP_AMPLIFICATION);
    expect(Math.max(...queries.map((q) => ratio(q, z, 'tcp'))).toFixed(2)).toBe(overTcp);
    // The worst queries, the apex's SOA and ns.<zone>'s AAAA without EDNS: whole where 3 times allows it.
    for (const worst of [query(zone, 'SOA'), query(`ns.${zone}`, 'AAAA')]) {
      expect(decode(answerQuery(worst, z, 'udp').answer).flag_tc).toBe(ratio(worst, z, 'tcp') > UDP_AMPLIFICATION);
    }
  });

  it('sends at most 50 bytes more than the query with one address of each family', () => {
    const sizes = smallest('dns.example.com').map((q) => [q.length, answerQuery(q, ZONE, 'udp').answer!.length] as const);
    expect(Math.max(...sizes.map(([q, a]) => a - q))).toBe(50);
  });
});
