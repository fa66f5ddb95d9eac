/**
 * A tiny STUN server for the WebRTC tests (RFC 5389 Binding only): answers each Binding
 * request with an XOR-MAPPED-ADDRESS, on 127.0.0.1. `reflect` makes it report a chosen
 * address instead of the sender's, as a server behind NAT would see a public one.
 */
import { createSocket, type RemoteInfo } from 'node:dgram';
import { isIPv4 } from 'node:net';

const MAGIC_COOKIE = 0x2112a442;
const BINDING_REQUEST = 0x0001;
const BINDING_SUCCESS = 0x0101;
const XOR_MAPPED_ADDRESS = 0x0020;

export interface StunResponder {
  url: string;
  port: number;
  /** Binding requests answered so far. */
  requests: () => number;
  close: () => Promise<void>;
}

/** The XOR-MAPPED-ADDRESS attribute for an IPv4 address and port. */
function xorMappedAddress(address: string, port: number): Buffer {
  if (!isIPv4(address)) throw new Error(`the test STUN responder reflects IPv4 only, not ${address}`);
  const attr = Buffer.alloc(12);
  attr.writeUInt16BE(XOR_MAPPED_ADDRESS, 0);
  attr.writeUInt16BE(8, 2);
  attr.writeUInt8(0, 4);
  attr.writeUInt8(0x01, 5);
  attr.writeUInt16BE(port ^ (MAGIC_COOKIE >>> 16), 6);
  const value = address.split('.').reduce((n, part) => n * 256 + Number(part), 0);
  attr.writeUInt32BE((value ^ MAGIC_COOKIE) >>> 0, 8);
  return attr;
}

/** The Binding success response to `request`, or undefined when it is not a Binding request. */
export function bindingResponse(request: Buffer, address: string, port: number): Buffer | undefined {
  if (request.length < 20 || request.readUInt16BE(0) !== BINDING_REQUEST || request.readUInt32BE(4) !== MAGIC_COOKIE) return undefined;
  const attr = xorMappedAddress(address, port);
  const header = Buffer.alloc(20);
  header.writeUInt16BE(BINDING_SUCCESS, 0);
  header.writeUInt16BE(attr.length, 2);
  request.copy(header, 4, 4, 20); // magic cookie and transaction id
  return Buffer.concat([header, attr]);
}

/** Starts the responder on 127.0.0.1 and a free port. */
export function startStunResponder(options: { reflect?: string } = {}): Promise<StunResponder> {
  const socket = createSocket('udp4');
  let count = 0;
  socket.on('message', (msg: Buffer, peer: RemoteInfo) => {
    const reply = bindingResponse(msg, options.reflect ?? peer.address, peer.port);
    if (!reply) return;
    count++;
    socket.send(reply, peer.port, peer.address);
  });
  return new Promise((resolve, reject) => {
    socket.once('error', reject);
    socket.bind(0, '127.0.0.1', () => {
      const { port } = socket.address();
      resolve({
        url: `stun:127.0.0.1:${port}`, port, requests: () => count,
        close: () => new Promise((done) => socket.close(() => done())),
      });
    });
  });
}
