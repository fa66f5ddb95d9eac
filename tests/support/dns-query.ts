/**
 * Sends the real DNS query a resolver would send for one name to the leak test's responder
 * (src/server/dns-leak/), from a loopback address of the test's choosing: any 127.0.0.0/8 address
 * binds on Linux, so each "resolver" of a test can have an address of its own. Used by the
 * responder's tests and by the browser tests, which intercept the page's requests to the
 * zone's names and play the visitor's resolver with this.
 */
import { createSocket } from 'node:dgram';
import { connect } from 'node:net';
import { randomInt } from 'node:crypto';
import * as dnsPacket from 'dns-packet';

export interface DnsQueryOptions {
  /** The responder's port (UDP and TCP alike). */
  port: number;
  /** The source address the query comes from (default 127.0.0.1); the responder's host is 127.0.0.1. */
  from?: string;
  /** 'A' (default) or 'AAAA', or any other type to see the refusal. */
  type?: dnsPacket.RecordType;
  /** 'udp' (default) or 'tcp'. */
  transport?: 'udp' | 'tcp';
  /** EDNS: a Client Subnet such as '203.0.113.0/24', and the DNSSEC OK bit; without either, no OPT record. */
  ecs?: string;
  dnssecOk?: boolean;
  /** How long to wait for the answer, in ms (default 2000). */
  timeoutMs?: number;
}

/** The query as it goes on the wire (without TCP's length prefix). */
export function dnsQuery(name: string, { type = 'A', ecs, dnssecOk }: Pick<DnsQueryOptions, 'type' | 'ecs' | 'dnssecOk'> = {}): Buffer {
  const options: dnsPacket.PacketOpt[] = [];
  if (ecs) {
    const [ip, bits] = ecs.split('/');
    options.push({ code: 8, ip: ip!, sourcePrefixLength: Number(bits), scopePrefixLength: 0 });
  }
  const opt = ecs || dnssecOk
    ? [{ type: 'OPT', name: '.', udpPayloadSize: 1232, flags: dnssecOk ? dnsPacket.DNSSEC_OK : 0, options } as dnsPacket.Answer]
    : [];
  return dnsPacket.encode({ type: 'query', id: randomInt(65536), flags: 0, questions: [{ type, class: 'IN', name }], additionals: opt });
}

/** Sends the query for `name` and resolves with the decoded answer; rejects when none comes in time. */
export function sendDnsQuery(name: string, options: DnsQueryOptions): Promise<dnsPacket.Packet> {
  const query = dnsQuery(name, options);
  return (options.transport === 'tcp' ? overTcp : overUdp)(query, options.port, options.from ?? '127.0.0.1', options.timeoutMs ?? 2000)
    .then((answer) => dnsPacket.decode(answer));
}

/** One datagram out from `from`, the first one back. */
export function overUdp(query: Buffer, port: number, from: string, timeoutMs: number): Promise<Buffer> {
  const socket = createSocket('udp4');
  return new Promise<Buffer>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no DNS answer over UDP within ${timeoutMs} ms`)), timeoutMs);
    socket.once('error', (error) => { clearTimeout(timer); reject(error); });
    socket.once('message', (answer) => { clearTimeout(timer); resolve(answer); });
    socket.bind(0, from, () => socket.send(query, port, '127.0.0.1'));
  }).finally(() => socket.close());
}

/** One query over TCP from `from`, with its two-byte length prefix; the first whole answer back. */
export function overTcp(query: Buffer, port: number, from: string, timeoutMs: number): Promise<Buffer> {
  const prefix = Buffer.alloc(2);
  prefix.writeUInt16BE(query.length);
  return new Promise<Buffer>((resolve, reject) => {
    const socket = connect({ host: '127.0.0.1', port, localAddress: from });
    let got: Buffer = Buffer.alloc(0);
    const timer = setTimeout(() => { socket.destroy(); reject(new Error(`no DNS answer over TCP within ${timeoutMs} ms`)); }, timeoutMs);
    socket.on('error', (error) => { clearTimeout(timer); reject(error); });
    socket.on('data', (chunk: Buffer) => {
      got = Buffer.concat([got, chunk]);
      if (got.length >= 2 && got.length >= 2 + got.readUInt16BE(0)) {
        clearTimeout(timer);
        socket.destroy();
        resolve(got.subarray(2, 2 + got.readUInt16BE(0)));
      }
    });
    socket.on('connect', () => socket.write(Buffer.concat([prefix, query])));
  });
}
