/**
 * The DNS leak test's responder on its sockets (src/server/dns/server.ts): what only a real
 * socket shows. No answer is reflected to a service's port (a spoofed query's victim), while
 * a resolver querying from port 53 is answered; TCP answers several queries of one
 * connection, each with its length prefix; an answer too large for UDP sends a real stub
 * resolver to TCP. Binding ports under 1024 needs root (CI runs as
 * root); without it those cases skip, except under CI.
 */
import { createSocket, type Socket } from 'node:dgram';
import { Resolver } from 'node:dns/promises';
import { connect } from 'node:net';
import * as dnsPacket from 'dns-packet';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dnsZone } from '../src/server/dns/leak-test.ts';
import { startDnsServer, type DnsServer } from '../src/server/dns/server.ts';
import { dnsQuery } from './support/dns-query.ts';

const TOKEN = 'fe'.repeat(16);
let server: DnsServer;
const notes: string[] = [];
beforeAll(async () => {
  server = await startDnsServer({ host: '127.0.0.1', port: 0, zone: dnsZone('dns.example.com', ['192.0.2.1']), onNote: (n) => notes.push(`${n.resolver} ${n.transport} ${n.name}`) });
});
afterAll(() => server.close());

/** A UDP socket on `port` of 127.0.0.6, or why it cannot be bound (ports under 1024 need root). */
async function socketOn(port: number): Promise<Socket | string> {
  const socket = createSocket('udp4');
  return new Promise((resolve) => {
    socket.once('error', (error) => {
      if (process.env.CI) throw new Error(`binding udp port ${port} is required under CI: ${error.message}`);
      resolve(`cannot bind udp port ${port}: ${error.message}`);
    });
    socket.bind(port, '127.0.0.6', () => resolve(socket));
  });
}

const answered = () => Number(/dns udp: udp \d+, (\d+) answered/.exec(server.describe())![1]);
const dropped = () => Number(/dns udp: .*?(\d+) malformed/.exec(server.describe())![1]);

describe('reflection', () => {
  it('answers no query from a service\'s port (NTP, 123), and answers one from port 53', async (ctx) => {
    const ntp = await socketOn(123);
    const dns = await socketOn(53);
    if (typeof ntp === 'string' || typeof dns === 'string') return ctx.skip([ntp, dns].find((s) => typeof s === 'string') as string);
    try {
      const before = { answered: answered(), dropped: dropped() };
      const got: string[] = [];
      ntp.on('message', () => got.push('ntp'));
      ntp.send(dnsQuery(`${TOKEN}-1.dns.example.com`), server.port, '127.0.0.1');
      // The query from port 53 is read after the one from 123 (one socket reads in order): its answer says both were handled.
      const answer = await new Promise<Buffer>((resolve) => {
        dns.once('message', resolve);
        dns.send(dnsQuery(`${TOKEN}-2.dns.example.com`), server.port, '127.0.0.1');
      });
      expect(dnsPacket.decode(answer).answers).toHaveLength(1);
      expect(got).toEqual([]);
      expect({ answered: answered() - before.answered, dropped: dropped() - before.dropped }).toEqual({ answered: 1, dropped: 1 });
      // Nor is the dropped one noted: a spoofed source fills no test.
      expect(notes).toContain('127.0.0.6 udp 2');
      expect(notes).not.toContain('127.0.0.6 udp 1');
    } finally {
      ntp.close();
      dns.close();
    }
  });
});

describe('TCP', () => {
  it('answers every query of one connection, in order, each with its length prefix', async () => {
    const queries = [1, 2, 3].map((n) => dnsQuery(`${TOKEN}-${n}.dns.example.com`));
    const socket = connect({ host: '127.0.0.1', port: server.port, localAddress: '127.0.0.7' });
    const answers: number[] = [];
    await new Promise<void>((resolve, reject) => {
      let got: Buffer = Buffer.alloc(0);
      socket.on('error', reject);
      socket.on('data', (chunk: Buffer) => {
        got = Buffer.concat([got, chunk]);
        while (got.length >= 2 && got.length >= 2 + got.readUInt16BE(0)) {
          answers.push(dnsPacket.decode(got.subarray(2, 2 + got.readUInt16BE(0))).id!);
          got = got.subarray(2 + got.readUInt16BE(0));
        }
        if (answers.length === 3) resolve();
      });
      // All three in one write, the last one split over two.
      const stream = Buffer.concat(queries.map((q) => Buffer.concat([Buffer.from([q.length >> 8, q.length & 255]), q])));
      socket.write(stream.subarray(0, stream.length - 5));
      setImmediate(() => socket.write(stream.subarray(stream.length - 5)));
    });
    socket.destroy();
    expect(answers).toEqual(queries.map((q) => q.readUInt16BE(0)));
    expect(notes).toEqual(expect.arrayContaining(['127.0.0.7 tcp 1', '127.0.0.7 tcp 2', '127.0.0.7 tcp 3']));
  });

  it('gives a stub resolver a truncated answer over UDP, and the whole one when it asks again over TCP', async () => {
    const many: string[] = [];
    // 40 addresses: 640 bytes of answers, past the 512 a query without EDNS may get over UDP.
    const big = await startDnsServer({
      host: '127.0.0.1', port: 0, zone: dnsZone('dns.example.com', Array.from({ length: 40 }, (_, i) => `192.0.2.${i + 1}`)),
      onNote: (n) => many.push(n.transport),
    });
    try {
      const resolver = new Resolver();
      resolver.setServers([`127.0.0.1:${big.port}`]);
      expect((await resolver.resolve4(`${TOKEN}-5.dns.example.com`)).sort()).toEqual(Array.from({ length: 40 }, (_, i) => `192.0.2.${i + 1}`).sort());
      expect(many).toEqual(['udp', 'tcp']);
    } finally {
      await big.close();
    }
  });
});
