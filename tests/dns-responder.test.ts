/**
 * The DNS leak test's responder on its sockets (src/server/dns-leak/server.ts): what only a real
 * socket shows. No answer is reflected to a service's port (a spoofed query's victim), while
 * a resolver querying from port 53 is answered; TCP answers several queries of one
 * connection, each with its length prefix; an answer too large for UDP sends a real stub
 * resolver to TCP; no source holds the TCP side for others (its caps, deadline and idle limit). Binding ports under 1024 needs root (CI runs as
 * root); without it those cases skip, except under CI.
 */
import { createSocket, type Socket } from 'node:dgram';
import { Resolver } from 'node:dns/promises';
import { connect } from 'node:net';
import * as dnsPacket from 'dns-packet';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { dnsZone } from '../src/server/dns-leak/leak-test.ts';
import { MAX_TCP_CONNECTIONS, MAX_TCP_PER_SOURCE, startDnsServer, type DnsServer, type TcpLimits } from '../src/server/dns-leak/server.ts';
import { dnsQuery, sendDnsQuery } from './support/dns-query.ts';

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

describe('TCP: no source holds the port for others', () => {
  interface Held { socket: ReturnType<typeof connect>; closed: boolean }
  /** A connection from `from`, once it is open (or already closed: refused). */
  async function hold(port: number, from: string): Promise<Held> {
    const held: Held = { socket: connect({ host: '127.0.0.1', port, localAddress: from }), closed: false };
    held.socket.on('error', () => {});
    held.socket.on('close', () => { held.closed = true; });
    await new Promise((r) => { held.socket.once('connect', r); held.socket.once('close', r); });
    return held;
  }
  const withServer = async (tcp: Partial<TcpLimits>, run: (port: number) => Promise<void>) => {
    const own = await startDnsServer({ host: '127.0.0.1', port: 0, zone: dnsZone('dns.example.com', ['192.0.2.1']), onNote: () => {}, tcp });
    try {
      await run(own.port);
    } finally {
      await own.close();
    }
  };
  const tokenQuery = (port: number, from: string) => sendDnsQuery(`${TOKEN}-1.dns.example.com`, { port, from, transport: 'tcp' });

  it(`answers another source while one holds all the connections it can (${MAX_TCP_PER_SOURCE} of the ${MAX_TCP_CONNECTIONS})`, async () => {
    const held = await Promise.all(Array.from({ length: MAX_TCP_CONNECTIONS + 8 }, () => hold(server.port, '127.0.0.8')));
    try {
      await vi.waitFor(() => expect(held.filter((h) => !h.closed)).toHaveLength(MAX_TCP_PER_SOURCE), { timeout: 5_000 });
      expect((await tokenQuery(server.port, '127.0.0.9')).answers).toHaveLength(1);
    } finally {
      for (const h of held) h.socket.destroy();
    }
  });

  it('closes a connection whose message is not whole within the deadline from its first byte, though a byte comes every 50 ms', async () => {
    await withServer({ messageMs: 300 }, async (port) => {
      const held = await hold(port, '127.0.0.10');
      const began = performance.now();
      held.socket.write(Buffer.from([0, 40])); // 40 bytes promised, a byte each 50 ms: 2 s
      const drip = setInterval(() => held.closed || held.socket.write(Buffer.from([0])), 50);
      try {
        await vi.waitFor(() => expect(held.closed).toBe(true), { timeout: 3_000, interval: 20 });
        expect(performance.now() - began).toBeGreaterThanOrEqual(290);
      } finally {
        clearInterval(drip);
        held.socket.destroy();
      }
    });
  });

  it('closes a connection the idle time after its last whole message', async () => {
    await withServer({ idleMs: 300 }, async (port) => {
      const held = await hold(port, '127.0.0.10');
      const q = dnsQuery(`${TOKEN}-1.dns.example.com`);
      const answered = new Promise((r) => held.socket.once('data', r));
      held.socket.write(Buffer.concat([Buffer.from([0, q.length]), q]));
      await answered;
      const after = performance.now();
      await vi.waitFor(() => expect(held.closed).toBe(true), { timeout: 3_000, interval: 20 });
      expect(performance.now() - after).toBeGreaterThanOrEqual(250);
    });
  });

  it('makes room, when all are taken, from the source holding the most, never from one holding as few as the newcomer', async () => {
    await withServer({ connections: 6, perSource: 4 }, async (port) => {
      const a: Held[] = [];
      for (let i = 0; i < 4; i++) a.push(await hold(port, '127.0.0.11'));
      const b = [await hold(port, '127.0.0.12'), await hold(port, '127.0.0.12')];
      const open = () => [...a, ...b, ...rest].filter((h) => !h.closed);
      const rest: Held[] = [];
      try {
        expect(open()).toHaveLength(6);
        // Each newcomer of 0 takes the oldest of a source holding 2 or more: a's three oldest, then b's oldest.
        for (const [from, gone] of [['127.0.0.13', a[0]], ['127.0.0.14', a[1]], ['127.0.0.15', a[2]], ['127.0.0.16', b[0]]] as const) {
          const newcomer = await hold(port, from);
          rest.push(newcomer);
          await vi.waitFor(() => expect(gone!.closed).toBe(true));
          expect(newcomer.closed).toBe(false);
          expect(open()).toHaveLength(6);
        }
        // Six sources of one each: the seventh is refused, and nobody loses a connection for it.
        const refused = await hold(port, '127.0.0.17');
        await vi.waitFor(() => expect(refused.closed).toBe(true));
        expect(open()).toHaveLength(6);
      } finally {
        for (const h of [...a, ...b, ...rest]) h.socket.destroy();
      }
    });
  });
});
