/**
 * The outside network, for the WebRTC tests: a UDP hop between the browser and the
 * server's own STUN responder that plays the visitor's NAT. Here every packet comes from
 * 127.0.0.1, so the responder can only ever answer a loopback address; on the internet
 * it would see the visitor's public address. The relay forwards each Binding request
 * unchanged, and in the responder's answer swaps the address for `publicAddress` (IPv4),
 * as if the request had arrived from there. Everything else is the real responder's work.
 */
import { createSocket, type RemoteInfo } from 'node:dgram';
import { withMappedIPv4 } from './stun-client.ts';

export interface StunRelay {
  /** The STUN URL the browser is given (PUBLIC_STUN_URL). */
  url: string;
  /** Answers the server's responder sent back through the relay. */
  answers: () => number;
  close: () => Promise<void>;
}

/** Starts a relay on 127.0.0.1 in front of the responder on `responderPort`. */
export async function startStunRelay(responderPort: number, publicAddress: string): Promise<StunRelay> {
  const front = createSocket('udp4');
  const back = createSocket('udp4');
  // Transaction id (hex) -> the browser socket that asked.
  const askers = new Map<string, RemoteInfo>();
  let answers = 0;
  front.on('message', (packet: Buffer, peer: RemoteInfo) => {
    if (packet.length < 20) return;
    askers.set(packet.subarray(8, 20).toString('hex'), peer);
    back.send(packet, responderPort, '127.0.0.1');
  });
  back.on('message', (packet: Buffer) => {
    const peer = packet.length >= 20 ? askers.get(packet.subarray(8, 20).toString('hex')) : undefined;
    if (!peer) return;
    answers++;
    front.send(packet.readUInt16BE(0) === 0x0101 ? withMappedIPv4(packet, publicAddress) : packet, peer.port, peer.address);
  });
  await Promise.all([front, back].map((socket) => new Promise<void>((resolve) => socket.bind(0, '127.0.0.1', resolve))));
  return {
    url: `stun:127.0.0.1:${front.address().port}`,
    answers: () => answers,
    close: () => Promise.all([front, back].map((socket) => new Promise<void>((done) => socket.close(() => done())))).then(() => undefined),
  };
}

/** A UDP port free right now on 127.0.0.1, for the server's STUN_PORT (0 there means off). */
export async function freeUdpPort(): Promise<number> {
  const socket = createSocket('udp4');
  await new Promise<void>((resolve) => socket.bind(0, '127.0.0.1', resolve));
  const { port } = socket.address();
  await new Promise<void>((resolve) => socket.close(() => resolve()));
  return port;
}
