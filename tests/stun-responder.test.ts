/**
 * The STUN responder in the process an operator runs (src/server/main.ts): a Binding
 * request from UDP source port 0, sent through a raw socket, is dropped and counted, and
 * the process lives on and answers the next request. /healthz shows the responder's line.
 */
import { createSocket } from 'node:dgram';
import { afterEach, describe, expect, it } from 'vitest';
import { startServer, type RunningServer } from './support/browser-harness.ts';
import { freeUdpPort } from './support/stun-relay.ts';
import { rawUdpMissing, sendRawUdp } from './support/raw-udp.ts';
import { bindingRequest, parseMessage, xorMappedAddress } from './support/stun-client.ts';

let server: RunningServer | undefined;
afterEach(async () => {
  await server?.stop();
  server = undefined;
});

/** The STUN line of /healthz. */
const stunLine = async (url: string) => (await (await fetch(`${url}/healthz`)).text()).split('\n').find((l) => l.startsWith('stun:'));

/** Sends one Binding request from an ordinary socket; resolves with the parsed answer. */
async function binding(port: number) {
  const socket = createSocket('udp4');
  await new Promise<void>((resolve) => socket.bind(0, '127.0.0.1', resolve));
  try {
    const answer = new Promise<Buffer>((resolve) => socket.once('message', resolve));
    socket.send(bindingRequest(), port, '127.0.0.1');
    return { from: socket.address().port, answer: parseMessage(await answer) };
  } finally {
    socket.close();
  }
}

describe('the STUN responder in the server process', () => {
  it('drops a Binding request from source port 0, counts it, and goes on answering', async (ctx) => {
    const missing = rawUdpMissing();
    if (missing) return ctx.skip(missing);
    const stunPort = await freeUdpPort();
    server = await startServer({ STUN_PORT: String(stunPort) });
    sendRawUdp(0, stunPort, bindingRequest());
    // The count is the sign the packet was read; the process is then asked again.
    await expect.poll(() => stunLine(server!.url), { timeout: 10_000 }).toMatch(/ 1 from port 0,/);
    const { from, answer } = await binding(stunPort);
    expect(xorMappedAddress(answer)).toEqual({ family: 4, address: '127.0.0.1', port: from });
    expect(server.process.exitCode).toBeNull();
    expect(await stunLine(server.url)).toBe(`stun: udp ${stunPort}, 1 answered, 0 over budget, 0 malformed, 1 from port 0, 0 from ports under 1024, 0 send errors, 0 answer errors (this process)`);
    expect(await server.stop()).toBe(0);
  }, 60_000);

  it('answers a Binding request from an ordinary raw source port, so the raw path itself works', async (ctx) => {
    const missing = rawUdpMissing();
    if (missing) return ctx.skip(missing);
    const stunPort = await freeUdpPort();
    server = await startServer({ STUN_PORT: String(stunPort) });
    sendRawUdp(40_000, stunPort, bindingRequest());
    await expect.poll(() => stunLine(server!.url), { timeout: 10_000 }).toMatch(/, 1 answered,/);
  }, 60_000);

  it('answers no source port under 1024 (echo, chargen, NTP: a spoofed request would aim the answer at them), and counts each', async (ctx) => {
    const missing = rawUdpMissing();
    if (missing) return ctx.skip(missing);
    const stunPort = await freeUdpPort();
    server = await startServer({ STUN_PORT: String(stunPort) });
    for (const port of [7, 19, 123, 1023]) sendRawUdp(port, stunPort, bindingRequest());
    sendRawUdp(1024, stunPort, bindingRequest());
    await expect.poll(() => stunLine(server!.url), { timeout: 10_000 }).toMatch(/, 1 answered,.* 4 from ports under 1024,/);
    expect(await stunLine(server.url)).toBe(`stun: udp ${stunPort}, 1 answered, 0 over budget, 0 malformed, 0 from port 0, 4 from ports under 1024, 0 send errors, 0 answer errors (this process)`);
  }, 60_000);

  it('says on /healthz when the responder is off', async () => {
    server = await startServer({ STUN_PORT: '0' });
    expect(await stunLine(server.url)).toBe('stun: off');
  }, 60_000);
});
