/**
 * A STUN client for tests, written apart from src/server/udp/stun.ts so the two check each
 * other: it builds Binding requests and reads answers (RFC 8489: header, attributes,
 * XOR-MAPPED-ADDRESS, ERROR-CODE, UNKNOWN-ATTRIBUTES, FINGERPRINT).
 */
import { randomBytes } from 'node:crypto';
import { crc32 } from 'node:zlib';

export const MAGIC_COOKIE = 0x2112a442;

export interface StunMessage {
  type: number;
  transactionId: Buffer;
  attributes: { type: number; value: Buffer }[];
}

/** A Binding request with the given attributes (type, value), plus a FINGERPRINT when asked. */
export function bindingRequest(options: { attributes?: [number, Buffer][]; fingerprint?: boolean; transactionId?: Buffer } = {}): Buffer {
  const transactionId = options.transactionId ?? randomBytes(12);
  const parts = (options.attributes ?? []).map(([type, value]) => {
    const attr = Buffer.alloc(4 + Math.ceil(value.length / 4) * 4);
    attr.writeUInt16BE(type, 0);
    attr.writeUInt16BE(value.length, 2);
    value.copy(attr, 4);
    return attr;
  });
  const body = Buffer.concat(parts);
  const header = Buffer.alloc(20);
  header.writeUInt16BE(0x0001, 0);
  header.writeUInt16BE(body.length + (options.fingerprint ? 8 : 0), 2);
  header.writeUInt32BE(MAGIC_COOKIE, 4);
  transactionId.copy(header, 8);
  const message = Buffer.concat([header, body]);
  if (!options.fingerprint) return message;
  const fingerprint = Buffer.alloc(8);
  fingerprint.writeUInt16BE(0x8028, 0);
  fingerprint.writeUInt16BE(4, 2);
  fingerprint.writeUInt32BE((crc32(message) ^ 0x5354554e) >>> 0, 4);
  return Buffer.concat([message, fingerprint]);
}

/** Splits a message into header fields and attributes; throws when it is not well formed. */
export function parseMessage(packet: Buffer): StunMessage {
  if (packet.length < 20 || packet.readUInt32BE(4) !== MAGIC_COOKIE) throw new Error('not a STUN message');
  if (packet.readUInt16BE(2) !== packet.length - 20) throw new Error('length field does not match');
  const attributes: StunMessage['attributes'] = [];
  for (let at = 20; at < packet.length; ) {
    const type = packet.readUInt16BE(at);
    const length = packet.readUInt16BE(at + 2);
    attributes.push({ type, value: packet.subarray(at + 4, at + 4 + length) });
    at += 4 + Math.ceil(length / 4) * 4;
  }
  return { type: packet.readUInt16BE(0), transactionId: packet.subarray(8, 20), attributes };
}

/** The address and port in a message's XOR-MAPPED-ADDRESS. */
export function xorMappedAddress(message: StunMessage): { family: 4 | 6; address: string; port: number } {
  const attr = message.attributes.find((a) => a.type === 0x0020);
  if (!attr) throw new Error('no XOR-MAPPED-ADDRESS');
  const key = Buffer.concat([Buffer.from([0x21, 0x12, 0xa4, 0x42]), message.transactionId]);
  const port = attr.value.readUInt16BE(2) ^ 0x2112;
  const raw = Buffer.from(attr.value.subarray(4).map((byte, i) => byte ^ key[i]!));
  if (attr.value[1] === 1) return { family: 4, address: [...raw].join('.'), port };
  const groups = Array.from({ length: 8 }, (_, i) => raw.readUInt16BE(i * 2).toString(16));
  return { family: 6, address: groups.join(':'), port };
}

/** A copy of `answer` whose XOR-MAPPED-ADDRESS says `address` (IPv4) instead of what it said. */
export function withMappedIPv4(answer: Buffer, address: string): Buffer {
  const message = parseMessage(answer);
  const attr = message.attributes.find((a) => a.type === 0x0020);
  if (!attr || attr.value[1] !== 1) throw new Error('expected an IPv4 XOR-MAPPED-ADDRESS');
  const out = Buffer.from(answer);
  const at = attr.value.byteOffset - answer.byteOffset + 4;
  const value = address.split('.').reduce((n, part) => n * 256 + Number(part), 0);
  out.writeUInt32BE((value ^ MAGIC_COOKIE) >>> 0, at);
  // A FINGERPRINT (last, 8 bytes) covers the address: recompute it over the new bytes.
  if (message.attributes.at(-1)?.type === 0x8028) {
    out.writeUInt32BE((crc32(out.subarray(0, out.length - 8)) ^ 0x5354554e) >>> 0, out.length - 4);
  }
  return out;
}
