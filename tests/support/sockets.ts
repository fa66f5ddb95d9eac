/**
 * Raw HTTP/1.1 client connections for the connection-cap tests (tests/connection-cap.test.ts):
 * opening many from one local address, asking on them, noting which the server closes. Used
 * in the test process for loopback clients, and in a test network namespace by the socket
 * agent (socket-agent.ts, beside this file) for the clients that must not be loopback.
 */
import { request } from 'node:http';
import { connect, type Socket } from 'node:net';

/** Where connections go, and the local address they leave from. */
export interface Target { host: string; port: number; from: string }

/** Connections opened together, and those of them the server (or the network) has closed. */
export interface Opened { sockets: Socket[]; closed: Set<Socket> }

/** How long one connect may take before it counts as failed. */
const CONNECT_MS = 5_000;

/**
 * Opens `n` connections to `target`; resolves once each has connected, rejects when one
 * fails or takes CONNECT_MS. The server's closing of any is noted in `closed` as it happens.
 */
export async function open(n: number, target: Target): Promise<Opened> {
  const opened: Opened = { sockets: [], closed: new Set() };
  await Promise.all(Array.from({ length: n }, () => new Promise<void>((resolve, reject) => {
    const socket = connect({ host: target.host, port: target.port, localAddress: target.from });
    opened.sockets.push(socket);
    const timer = setTimeout(() => reject(new Error(`no connection from ${target.from} to ${target.host}:${target.port} in ${CONNECT_MS} ms`)), CONNECT_MS);
    socket.on('error', () => {});
    socket.on('close', () => opened.closed.add(socket));
    socket.once('connect', () => { clearTimeout(timer); resolve(); });
    socket.once('error', (error) => { clearTimeout(timer); reject(error); });
  })));
  return opened;
}

/** The sockets of `opened` the server has not closed, in the order they were opened. */
export const held = (opened: Opened): Socket[] => opened.sockets.filter((s) => !opened.closed.has(s));

/** The status line of GET `target` asked on an open socket (kept open after it); rejects when it closes first. */
export function ask(socket: Socket, target = '/ip'): Promise<string> {
  return new Promise((resolve, reject) => {
    if (socket.destroyed) return reject(new Error('closed before it was asked'));
    let text = '';
    socket.on('data', (chunk) => {
      text += chunk.toString('latin1');
      if (text.includes('\r\n\r\n')) resolve(text.slice(0, text.indexOf('\r\n')));
    });
    socket.once('close', () => reject(new Error(`closed before an answer: ${text}`)));
    socket.write(`GET ${target} HTTP/1.1\r\nhost: test\r\n\r\n`);
  });
}

/** One GET `path` on a connection of its own, closed after it: the status code and the body (in at most `ms`). */
export function get(target: Target, path: string, ms = 5_000): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = request({ host: target.host, port: target.port, localAddress: target.from, path, agent: false, headers: { connection: 'close' }, timeout: ms }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => { body += chunk; });
      res.once('end', () => resolve({ status: res.statusCode ?? 0, body }));
      res.once('error', reject);
    });
    req.once('timeout', () => req.destroy(new Error(`no answer to ${path} in ${ms} ms`)));
    req.once('error', reject);
    req.end();
  });
}
