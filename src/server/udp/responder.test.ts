// The UDP message loop with sockets that fail on purpose (no root, no raw socket): nothing a
// packet or a send does escapes it, every outcome is counted, failures are logged rarely,
// and the per-source budget holds under a flood. The same over real UDP on loopback.
import { createSocket, type Socket } from 'node:dgram';
import { afterEach, describe, expect, it } from 'vitest';
import { RareLog } from '../utils/log.ts';
import { PacketLoop, startUdpResponder, type Answerer, type LoopOptions, type ResponderCounts, type Sender, type UdpResponder } from './responder.ts';

const PACKET = Buffer.from('ping');
const PONG: Answerer = () => Buffer.from('pong');
const BUDGET = { perSecond: 20, burst: 40, maxSources: 1000 };

/** A sender that records what it was asked to send and answers its callback as told. */
function sender(behaviour: 'sends' | 'throws' | 'fails later'): Sender & { sent: Array<[number, string]> } {
  const sent: Array<[number, string]> = [];
  return {
    sent,
    send(_answer, port, address, callback) {
      if (behaviour === 'throws') throw new RangeError(`Port should be > 0 and < 65536. Received ${port}.`);
      sent.push([port, address]);
      if (behaviour === 'fails later') setImmediate(() => callback(Object.assign(new Error(`send EPERM ${address}:${port}`), { code: 'EPERM' })));
      else callback(null);
    },
  };
}

/** A loop over `socket` whose log lines land in `lines`, on a clock the test sets. */
function loop(socket: Sender, options: Partial<LoopOptions> = {}) {
  const lines: string[] = [];
  const clock = { t: 0 };
  const l = new PacketLoop(socket, { name: 'test', answer: PONG, budget: false, log: new RareLog((line) => lines.push(line), 60_000, () => clock.t), now: () => clock.t, ...options });
  return { loop: l, lines, clock };
}

const none: ResponderCounts = { answered: 0, portZero: 0, lowPort: 0, overBudget: 0, malformed: 0, sendErrors: 0, answerErrors: 0 };

describe('PacketLoop: nothing escapes it', () => {
  it('drops a packet from source port 0 without asking the answerer or the socket', () => {
    let asked = 0;
    const socket = sender('sends');
    const { loop: l } = loop(socket, { answer: () => { asked++; return PACKET; } });
    l.handle(PACKET, { address: '203.0.113.9', port: 0 });
    expect([asked, socket.sent, l.counts]).toEqual([0, [], { ...none, portZero: 1 }]);
  });

  // A responder with minSourcePort (the STUN one: 1024) answers no well-known service's port.
  it.each<[number | undefined, number, Partial<ResponderCounts>]>([
    [1024, 0, { portZero: 1 }],
    [1024, 1, { lowPort: 1 }],
    [1024, 7, { lowPort: 1 }],
    [1024, 19, { lowPort: 1 }],
    [1024, 123, { lowPort: 1 }],
    [1024, 1023, { lowPort: 1 }],
    [1024, 1024, { answered: 1 }],
    [1024, 65535, { answered: 1 }],
    [undefined, 1, { answered: 1 }],
    [undefined, 123, { answered: 1 }],
  ])('with minSourcePort %s, a packet from source port %i is counted as %j', (minSourcePort, port, counts) => {
    let asked = 0;
    const socket = sender('sends');
    const { loop: l } = loop(socket, { answer: () => { asked++; return PACKET; }, ...(minSourcePort ? { minSourcePort } : {}) });
    l.handle(PACKET, { address: '203.0.113.9', port });
    expect([l.counts, socket.sent.length, asked]).toEqual([{ ...none, ...counts }, counts.answered ?? 0, counts.answered ?? 0]);
  });

  it.each<[string, 'sends' | 'throws' | 'fails later', Partial<ResponderCounts>]>([
    ['a send that works is counted as answered', 'sends', { answered: 100 }],
    ['a send that throws synchronously is counted, and the loop goes on', 'throws', { sendErrors: 100 }],
    ['a send whose callback reports an error is counted, and the loop goes on', 'fails later', { sendErrors: 100 }],
  ])('%s', async (_, behaviour, counts) => {
    const { loop: l, lines } = loop(sender(behaviour));
    for (let i = 0; i < 100; i++) expect(() => l.handle(PACKET, { address: '203.0.113.9', port: 1000 + i })).not.toThrow();
    await new Promise((resolve) => setImmediate(resolve));
    expect(l.counts).toEqual({ ...none, ...counts });
    // One line for a hundred failures, not a hundred.
    expect(lines).toHaveLength(behaviour === 'sends' ? 0 : 1);
  });

  it('counts an answerer that throws, logs it once, and answers the next packet', () => {
    const socket = sender('sends');
    const { loop: l, lines } = loop(socket, { answer: (packet) => { if (packet.length === 0) throw new TypeError('boom'); return PACKET; } });
    for (let i = 0; i < 50; i++) expect(() => l.handle(Buffer.alloc(0), { address: '203.0.113.9', port: 1000 })).not.toThrow();
    l.handle(PACKET, { address: '203.0.113.9', port: 1000 });
    expect(l.counts).toEqual({ ...none, answerErrors: 50, answered: 1 });
    expect(lines).toEqual([expect.stringMatching(/^test: answering a packet failed: TypeError: boom/)]);
  });

  it('counts a packet the answerer gives no answer as malformed, and sends nothing', () => {
    const socket = sender('sends');
    const { loop: l } = loop(socket, { answer: () => undefined });
    l.handle(PACKET, { address: '203.0.113.9', port: 1000 });
    expect([socket.sent, l.counts]).toEqual([[], { ...none, malformed: 1 }]);
  });

  it('logs each kind of failure once a minute, with how many it held back', () => {
    const throwing = sender('throws');
    const { loop: l, lines, clock } = loop(throwing, { answer: (packet) => { if (packet.length === 0) throw new TypeError('boom'); return PACKET; } });
    const peer = { address: '203.0.113.9', port: 1000 };
    for (let i = 0; i < 3; i++) { l.handle(PACKET, peer); l.handle(Buffer.alloc(0), peer); }
    expect(lines).toHaveLength(2);
    clock.t = 60_000;
    l.handle(PACKET, peer);
    expect(lines).toHaveLength(3);
    expect(lines[2]).toMatch(/^test: sending an answer failed: RangeError: .*\(and 2 more like it since the last one\)$/);
  });
});

describe('PacketLoop: the per-source budget', () => {
  it('answers a flood of 10,000 packets from one source at most the budget\'s worth, and another source meanwhile every time', () => {
    const socket = sender('sends');
    const { loop: l, clock } = loop(socket, { budget: BUDGET });
    // 10,000 packets within one second, and one from another source after every thousand.
    for (let i = 0; i < 10_000; i++) {
      clock.t = Math.floor(i / 10);
      l.handle(PACKET, { address: '203.0.113.9', port: 40_000 });
      if (i % 1000 === 999) l.handle(PACKET, { address: '198.51.100.7', port: 50_000 });
    }
    const to = (address: string) => socket.sent.filter(([, a]) => a === address).length;
    // The burst of 40, then one every 50 ms for the rest of the second: at most 40 + 20.
    expect(to('203.0.113.9')).toBe(59);
    expect(to('198.51.100.7')).toBe(10);
    expect(l.counts).toEqual({ ...none, answered: 69, overBudget: 10_000 - 59 });
  });

  it('tracks no more sources than its bound under a flood from spoofed sources', () => {
    const { loop: l } = loop(sender('sends'), { budget: { ...BUDGET, maxSources: 8 } });
    for (let i = 0; i < 10_000; i++) {
      l.handle(PACKET, { address: `10.${i >> 16}.${(i >> 8) & 255}.${i & 255}`, port: 1000 });
      expect(l.budget!.size).toBeLessThanOrEqual(8);
    }
    expect(l.counts.answered).toBe(10_000);
  });

  it('says what it did in one /healthz line', () => {
    const { loop: l } = loop(sender('sends'), { budget: { ...BUDGET, burst: 1 } });
    l.handle(PACKET, { address: '203.0.113.9', port: 0 });
    l.handle(PACKET, { address: '203.0.113.9', port: 1 });
    l.handle(PACKET, { address: '203.0.113.9', port: 1 });
    expect(l.describe(3478)).toBe('test: udp 3478, 1 answered, 1 over budget, 0 malformed, 1 from port 0, 0 send errors, 0 answer errors (this process)');
  });

  it('names the ports under its minSourcePort in its /healthz line when it has one', () => {
    const { loop: l } = loop(sender('sends'), { minSourcePort: 1024 });
    l.handle(PACKET, { address: '203.0.113.9', port: 123 });
    l.handle(PACKET, { address: '203.0.113.9', port: 1024 });
    expect(l.describe(3478)).toBe('test: udp 3478, 1 answered, 0 over budget, 0 malformed, 0 from port 0, 1 from ports under 1024, 0 send errors, 0 answer errors (this process)');
  });
});

describe('startUdpResponder over loopback', () => {
  let responder: UdpResponder | undefined;
  const sockets: Socket[] = [];
  afterEach(async () => {
    for (const s of sockets.splice(0)) s.close();
    await responder?.close();
  });

  /** A socket bound on `host`, or undefined when this machine has no such loopback address. */
  async function client(host: string): Promise<Socket | undefined> {
    const socket = createSocket('udp4');
    const bound = await new Promise<boolean>((resolve) => {
      socket.once('error', () => resolve(false));
      socket.bind(0, host, () => resolve(true));
    });
    if (!bound) { socket.close(); return undefined; }
    sockets.push(socket);
    return socket;
  }

  it('answers a flood from one address at most the budget\'s worth, and answers another address meanwhile', async (ctx) => {
    responder = await startUdpResponder('127.0.0.1', 0, { name: 'test', answer: PONG, budget: BUDGET });
    const flooder = (await client('127.0.0.1'))!;
    const other = await client('127.0.0.2');
    if (!other) return ctx.skip('127.0.0.2 is not a loopback address on this machine');
    let flooded = 0;
    let answered = 0;
    flooder.on('message', () => flooded++);
    other.on('message', () => answered++);
    const started = performance.now();
    for (let i = 0; i < 10_000; i++) {
      flooder.send(PACKET, responder.port, '127.0.0.1');
      // Let the responder read now and then, as it would from a real network.
      if (i % 100 === 99) {
        await new Promise((resolve) => setImmediate(resolve));
        if (i % 1000 === 999) other.send(PACKET, responder.port, '127.0.0.1');
      }
    }
    // The other address was answered during the flood (each of its ten packets could be lost
    // on a full loopback queue, hence at least one). Answers can be lost on the way back too,
    // so the bound is checked on what the responder sent, and what arrived is at most that.
    await expect.poll(() => answered, { timeout: 5000 }).toBeGreaterThan(0);
    await expect.poll(() => responder!.counts.answered >= flooded + answered, { timeout: 5000 }).toBe(true);
    const seconds = (performance.now() - started) / 1000;
    expect(flooded).toBeGreaterThan(0);
    // The flooder's budget, plus at most the other address's ten.
    expect(responder.counts.answered).toBeLessThanOrEqual(BUDGET.burst + Math.ceil(BUDGET.perSecond * seconds) + 10);
    expect(responder.counts.overBudget).toBeGreaterThan(0);
  });
});
