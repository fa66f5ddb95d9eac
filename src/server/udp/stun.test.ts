// The STUN responder over real UDP on loopback: what a STUN client (a browser's ICE agent)
// gets back, and that malformed packets get nothing and do not stop it.
import { createSocket, type Socket } from 'node:dgram';
import { crc32 } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bindingRequest, parseMessage, xorMappedAddress } from '../../../tests/support/stun-client.ts';
import { parseIp } from '../../lib/ip-address.ts';
import { startStunServer, STUN_BUDGET, stunAnswer, type StunServer } from './stun.ts';

let v4: StunServer;
let client: Socket;
beforeAll(async () => {
  v4 = await startStunServer('127.0.0.1', 0);
  client = createSocket('udp4');
  await new Promise<void>((resolve) => client.bind(0, '127.0.0.1', resolve));
});
afterAll(async () => {
  client.close();
  await v4.close();
});

/** Sends one packet; resolves with the answer, or null when none came within `ms`. */
function exchange(socket: Socket, port: number, host: string, packet: Buffer, ms = 300): Promise<Buffer | null> {
  return new Promise((resolve) => {
    const timer = setTimeout(() => { socket.off('message', onMessage); resolve(null); }, ms);
    const onMessage = (answer: Buffer) => { clearTimeout(timer); socket.off('message', onMessage); resolve(answer); };
    socket.on('message', onMessage);
    socket.send(packet, port, host);
  });
}

describe('Binding over UDP', () => {
  it('answers a Binding request with the sender\'s address and port in XOR-MAPPED-ADDRESS', async () => {
    const request = bindingRequest();
    const answer = parseMessage((await exchange(client, v4.port, '127.0.0.1', request))!);
    expect(answer.type).toBe(0x0101);
    expect(answer.transactionId).toEqual(request.subarray(8, 20));
    expect(xorMappedAddress(answer)).toEqual({ family: 4, address: '127.0.0.1', port: client.address().port });
  });

  it('answers IPv6 senders with an IPv6 XOR-MAPPED-ADDRESS (XORed with the transaction id too)', async (ctx) => {
    const socket = createSocket('udp6');
    const bound = await new Promise<boolean>((resolve) => {
      socket.once('error', () => resolve(false));
      socket.bind(0, '::1', () => resolve(true));
    });
    if (!bound) {
      socket.close();
      return ctx.skip('no IPv6 loopback on this machine');
    }
    const v6 = await startStunServer('::1', 0);
    try {
      const answer = parseMessage((await exchange(socket, v6.port, '::1', bindingRequest()))!);
      expect(xorMappedAddress(answer)).toEqual({ family: 6, address: '0:0:0:0:0:0:0:1', port: socket.address().port });
    } finally {
      socket.close();
      await v6.close();
    }
  });

  it('sends a FINGERPRINT back when the request carried one, computed over the answer', async () => {
    const packet = (await exchange(client, v4.port, '127.0.0.1', bindingRequest({ fingerprint: true })))!;
    const last = parseMessage(packet).attributes.at(-1)!;
    expect(last.type).toBe(0x8028);
    expect(last.value.readUInt32BE(0)).toBe((crc32(packet.subarray(0, packet.length - 8)) ^ 0x5354554e) >>> 0);
  });

  it('ignores credentials and ICE attributes it need not check, and comprehension-optional ones', async () => {
    const request = bindingRequest({ attributes: [[0x0006, Buffer.from('user:name')], [0x0024, Buffer.alloc(4)], [0x8022, Buffer.from('client 1.0')]] });
    expect(parseMessage((await exchange(client, v4.port, '127.0.0.1', request))!).type).toBe(0x0101);
  });

  it.each<[string, boolean, number[]]>([
    ['without FINGERPRINT', false, [0x0009]],
    ['with FINGERPRINT', true, [0x0009, 0x8028]],
  ])('answers a comprehension-required attribute it does not know with a bare 420 (%s): no reason text, no list', async (_, fingerprint, types) => {
    const request = bindingRequest({ attributes: [[0x0003, Buffer.alloc(4)], [0x7fff, Buffer.alloc(1)]], fingerprint }); // CHANGE-REQUEST and an unassigned one
    const answer = parseMessage((await exchange(client, v4.port, '127.0.0.1', request))!);
    expect(answer.type).toBe(0x0111);
    expect(answer.transactionId).toEqual(request.subarray(8, 20));
    expect(answer.attributes.map((a) => a.type)).toEqual(types);
    expect([...answer.attributes[0]!.value]).toEqual([0, 0, 4, 20]);
  });
});

// RFC 5769's test vectors, byte for byte (section 2.1 the sample request, 2.2 and 2.3 the
// IPv4 and IPv6 responses to it). The responder builds no SOFTWARE and no MESSAGE-INTEGRITY
// (it asks no credentials), so its answer is checked against the vectors' XOR-MAPPED-ADDRESS
// and against their FINGERPRINT rule; the request's FINGERPRINT is checked, its
// MESSAGE-INTEGRITY ignored.
const hex = (text: string) => Buffer.from(text.replace(/\s+/g, ''), 'hex');
const RFC5769 = {
  transactionId: hex('b7e7a701 bc34d686 fa87dfae'),
  request: hex(`
    00010058 2112a442 b7e7a701 bc34d686 fa87dfae
    80220010 5354554e 20746573 7420636c 69656e74
    00240004 6e0001ff
    80290008 932ff9b1 51263b36
    00060009 6576746a 3a683676 59202020
    00080014 9aeaa70c bfd8cb56 781ef2b5 b2d3f249 c1b571a2
    80280004 e57a3bcf`),
  ipv4Response: hex(`
    0101003c 2112a442 b7e7a701 bc34d686 fa87dfae
    8022000b 74657374 20766563 746f7220
    00200008 0001a147 e112a643
    00080014 2b91f599 fd9e90c3 8c7489f9 2af9ba53 f06be7d7
    80280004 c07d4c96`),
  ipv6Response: hex(`
    01010048 2112a442 b7e7a701 bc34d686 fa87dfae
    8022000b 74657374 20766563 746f7220
    00200014 0002a147 0113a9fa a5d3f179 bc25f4b5 bed2b9d9
    00080014 a382954e 4be67bf1 1784c97c 8292c275 bfe3ed41
    80280004 c8fb0b4c`),
};
/** A message's FINGERPRINT as RFC 8489 section 14.7 computes it (CRC-32 of all before it, XOR 0x5354554e). */
const fingerprintOf = (message: Buffer) => (crc32(message.subarray(0, message.length - 8)) ^ 0x5354554e) >>> 0;
const attributeOf = (message: Buffer, type: number) => parseMessage(message).attributes.find((a) => a.type === type);

describe('RFC 5769 test vectors', () => {
  it.each<[string, Buffer]>([
    ['the sample request (2.1)', RFC5769.request],
    ['the IPv4 response (2.2)', RFC5769.ipv4Response],
    ['the IPv6 response (2.3)', RFC5769.ipv6Response],
  ])('%s ends with the FINGERPRINT this test computes, so the rule is the RFC\'s', (_, message) => {
    expect(message.readUInt32BE(message.length - 4)).toBe(fingerprintOf(message));
  });

  it.each<[string, Buffer, string, { family: 4 | 6; address: string; port: number }]>([
    ['2.2', RFC5769.ipv4Response, '192.0.2.1', { family: 4, address: '192.0.2.1', port: 32853 }],
    ['2.3', RFC5769.ipv6Response, '2001:db8:1234:5678:11:2233:4455:6677', { family: 6, address: '2001:db8:1234:5678:11:2233:4455:6677', port: 32853 }],
  ])('answers the sample request from the address of %s with the vector\'s XOR-MAPPED-ADDRESS, byte for byte', (_, response, address, mapped) => {
    const answer = stunAnswer(RFC5769.request, address, 32853)!;
    const message = parseMessage(answer);
    expect(message.type).toBe(0x0101);
    expect(message.transactionId).toEqual(RFC5769.transactionId);
    expect(attributeOf(answer, 0x0020)!.value).toEqual(attributeOf(response, 0x0020)!.value);
    // Decoded, the vector's attribute names the RFC's address and port.
    const decoded = xorMappedAddress(parseMessage(response));
    expect({ ...decoded, address: parseIp(decoded.address) }).toEqual({ ...mapped, address: parseIp(mapped.address) });
    expect(xorMappedAddress(message)).toEqual(decoded);
    // The request carried a FINGERPRINT, so the answer ends with one, by the vectors' rule.
    expect(message.attributes.map((a) => a.type)).toEqual([0x0020, 0x8028]);
    expect(answer.readUInt32BE(answer.length - 4)).toBe(fingerprintOf(answer));
  });

  it('drops the sample request once its FINGERPRINT no longer matches, and answers it whatever its MESSAGE-INTEGRITY says', () => {
    const badFingerprint = Buffer.from(RFC5769.request);
    badFingerprint[badFingerprint.length - 1]! ^= 1;
    expect(stunAnswer(badFingerprint, '192.0.2.1', 32853)).toBeUndefined();
    // The integrity's last byte changed and the FINGERPRINT computed again: only MESSAGE-INTEGRITY is wrong now.
    const badIntegrity = Buffer.from(RFC5769.request);
    badIntegrity[badIntegrity.length - 9]! ^= 1;
    badIntegrity.writeUInt32BE(fingerprintOf(badIntegrity), badIntegrity.length - 4);
    expect(parseMessage(stunAnswer(badIntegrity, '192.0.2.1', 32853)!).type).toBe(0x0101);
  });
});

describe('bad packets', () => {
  const valid = bindingRequest();
  const withType = (type: number) => { const p = Buffer.from(valid); p.writeUInt16BE(type, 0); return p; };
  const withLength = (length: number) => { const p = Buffer.from(valid); p.writeUInt16BE(length, 2); return p; };
  const badFingerprint = (() => { const p = bindingRequest({ fingerprint: true }); p.writeUInt32BE((p.readUInt32BE(p.length - 4) ^ 1) >>> 0, p.length - 4); return p; })();
  const afterFingerprint = (() => {
    const p = bindingRequest({ fingerprint: true });
    const tail = Buffer.from([0x80, 0x22, 0, 0]);
    const out = Buffer.concat([p, tail]);
    out.writeUInt16BE(out.length - 20, 2);
    return out;
  })();
  const overrun = (() => { const p = bindingRequest({ attributes: [[0x8022, Buffer.alloc(4)]] }); p.writeUInt16BE(64, 22); return p; })();

  it.each<[string, Buffer]>([
    ['an empty datagram', Buffer.alloc(0)],
    ['19 bytes, one short of a header', valid.subarray(0, 19)],
    ['an HTTP request', Buffer.from('GET / HTTP/1.1\r\nHost: x\r\n\r\n')],
    ['the two top bits set', withType(0xc001)],
    ['no magic cookie (an RFC 3489 request)', (() => { const p = Buffer.from(valid); p.writeUInt32BE(0, 4); return p; })()],
    ['a length that is not a multiple of 4', withLength(2)],
    ['a length past the end of the packet', withLength(4)],
    ['a Binding success response (never answered, so no loops)', withType(0x0101)],
    ['a Binding indication', withType(0x0011)],
    ['another method (Allocate)', withType(0x0003)],
    ['an attribute running past the end', overrun],
    ['a wrong FINGERPRINT', badFingerprint],
    ['an attribute after FINGERPRINT', afterFingerprint],
    ['random bytes', Buffer.from(Array.from({ length: 64 }, (_, i) => (i * 37 + 11) & 0xff))],
  ])('drops %s without an answer, and keeps answering', async (_, packet) => {
    expect(stunAnswer(packet, '127.0.0.1', 5000)).toBeUndefined();
    expect(await exchange(client, v4.port, '127.0.0.1', packet, 150)).toBeNull();
    expect(parseMessage((await exchange(client, v4.port, '127.0.0.1', bindingRequest()))!).type).toBe(0x0101);
  });

  it.each<[string, Buffer, string, number, number]>([
    ['a bare Binding request from IPv4', bindingRequest(), '203.0.113.9', 12, 1.6],
    ['a bare Binding request from IPv6 (the largest growth)', bindingRequest(), '2001:db8::1', 24, 2.2],
    ['a Binding request with FINGERPRINT from IPv6', bindingRequest({ fingerprint: true }), '2001:db8::1', 24, 52 / 28],
    ['a 420 for one empty unknown attribute', bindingRequest({ attributes: [[0x7fff, Buffer.alloc(0)]] }), '203.0.113.9', 4, 28 / 24],
    ['a 420 for one unknown attribute sent twice', bindingRequest({ attributes: [[0x7fff, Buffer.alloc(0)], [0x7fff, Buffer.alloc(0)]] }), '203.0.113.9', 0, 1],
  ])('answers %s with at most 24 bytes more, so it cannot amplify a spoofed flood', (_, request, from, growth, ratio) => {
    const answer = stunAnswer(request, from, 1)!;
    expect(answer.length - request.length).toBe(growth);
    expect(answer.length / request.length).toBeCloseTo(ratio, 6);
  });
});

describe('startStunServer', () => {
  it('rejects when the port is taken, so the server can say which setting to change', async () => {
    await expect(startStunServer('127.0.0.1', v4.port)).rejects.toMatchObject({ code: 'EADDRINUSE' });
  });

  it('answers a burst of 100 requests from one source with at most its budget, and counts the rest', async () => {
    const server = await startStunServer('127.0.0.1', 0);
    const socket = createSocket('udp4');
    await new Promise<void>((resolve) => socket.bind(0, '127.0.0.1', resolve));
    try {
      let answers = 0;
      socket.on('message', () => answers++);
      const started = performance.now();
      for (let i = 0; i < 100; i++) {
        socket.send(bindingRequest(), server.port, '127.0.0.1');
        // Let the responder read, so the loopback queue never overflows.
        if (i % 25 === 24) await new Promise((resolve) => setImmediate(resolve));
      }
      await expect.poll(() => server.counts.answered + server.counts.overBudget, { timeout: 5000 }).toBe(100);
      const seconds = (performance.now() - started) / 1000;
      expect(server.counts.answered).toBeLessThanOrEqual(STUN_BUDGET.burst + Math.ceil(STUN_BUDGET.perSecond * seconds));
      await expect.poll(() => answers).toBe(server.counts.answered);
      expect(server.describe()).toBe(`stun: udp ${server.port}, ${answers} answered, ${100 - answers} over budget, 0 malformed, 0 from port 0, 0 from ports under 1024, 0 send errors, 0 answer errors (this process)`);
    } finally {
      socket.close();
      await server.close();
    }
  });
});
