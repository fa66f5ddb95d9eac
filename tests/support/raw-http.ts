/**
 * One HTTP/1.1 exchange over a raw TCP socket (node:net): the exact bytes reach the server,
 * backslashes and dot segments included, which fetch would normalise and node's client may
 * refuse; and a client can be slow on purpose, a byte at a time.
 */
import { connect } from 'node:net';

/** What came back, and how. */
export interface RawAnswer {
  /** The status line's code; 0 when none came. */
  status: number;
  /** The status line and headers, lower-cased names. */
  headers: Map<string, string>;
  body: Buffer;
  /** The answer arrived whole: its Content-Length, its last chunk, or its close-delimited end. */
  complete: boolean;
  /** The server closed the connection (the exchange ends there, or at `timeoutMs`). */
  closed: boolean;
  /** From the connection to its close, or to `timeoutMs`. */
  ms: number;
}

export interface RawOptions {
  /** How long to wait for the server to close the connection (answer with `Connection: close` to end sooner). */
  timeoutMs?: number;
  /** Sent after `bytes`, one byte every `dripMs`, until the server closes the connection. */
  drip?: string;
  dripMs?: number;
}

function parse(raw: Buffer): Pick<RawAnswer, 'status' | 'headers' | 'body'> & { whole: boolean } {
  const end = raw.indexOf('\r\n\r\n');
  if (end === -1) return { status: 0, headers: new Map(), body: Buffer.alloc(0), whole: false };
  const [statusLine, ...lines] = raw.subarray(0, end).toString('latin1').split('\r\n');
  const headers = new Map(lines.map((line) => [line.slice(0, line.indexOf(':')).toLowerCase(), line.slice(line.indexOf(':') + 1).trim()]));
  const body = raw.subarray(end + 4);
  const length = headers.get('content-length');
  const whole = length !== undefined ? body.length === Number(length)
    : headers.get('transfer-encoding') === 'chunked' ? body.toString('latin1').endsWith('0\r\n\r\n')
    : true; // close-delimited: whole when the server closes
  return { status: Number(/^HTTP\/1\.1 (\d{3})/.exec(statusLine!)?.[1] ?? 0), headers, body, whole };
}

/** Sends `bytes` (then `drip`, slowly) and resolves with what came back once the server closes, or at `timeoutMs`. */
export function rawExchange(port: number, bytes: string, options: RawOptions = {}): Promise<RawAnswer> {
  const { timeoutMs = 2_000, drip = '', dripMs = 1_000 } = options;
  return new Promise((resolve) => {
    const start = performance.now();
    const chunks: Buffer[] = [];
    const socket = connect(port, '127.0.0.1');
    let dripped = 0;
    let dripper: NodeJS.Timeout | undefined;
    let done = false;
    const finish = (closed: boolean) => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      clearInterval(dripper);
      socket.destroy();
      const { whole, ...answer } = parse(Buffer.concat(chunks));
      resolve({ ...answer, complete: answer.status > 0 && whole && closed, closed, ms: performance.now() - start });
    };
    const timer = setTimeout(() => finish(false), timeoutMs);
    socket.on('data', (d: Buffer) => chunks.push(d));
    socket.on('close', () => finish(true));
    // A reset after the server's answer is still a close by the server.
    socket.on('error', () => {});
    socket.once('connect', () => {
      socket.write(bytes, 'latin1');
      if (drip) dripper = setInterval(() => { if (dripped < drip.length) socket.write(drip[dripped++]!, 'latin1'); }, dripMs);
    });
  });
}

/** A HEAD answer as the bytes showed it. */
export interface RawHeadAnswer {
  status: number;
  headers: Map<string, string>;
  /** What came after the HEAD answer's headers and before the next answer: a body it must not carry. */
  body: Buffer;
  /** The status of the GET sent after it on the same connection (0 when none could be read). */
  nextStatus: number;
}

/**
 * HEAD `target` over a raw socket, then a GET of `next` on the same connection. fetch and
 * node's client drop whatever a HEAD answer carries past its headers, so a test through
 * them cannot see a body the server sent; the bytes can: anything between the HEAD
 * answer's headers and the next status line is such a body (and a keep-alive client
 * would read it as the start of the next answer).
 */
export async function rawHead(port: number, target: string, headers: Record<string, string> = {}, next = '/healthz'): Promise<RawHeadAnswer> {
  const lines = Object.entries(headers).map(([name, value]) => `${name}: ${value}\r\n`).join('');
  const answer = await rawExchange(port,
    `HEAD ${target} HTTP/1.1\r\nHost: 127.0.0.1\r\n${lines}\r\nGET ${next} HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n`,
    { timeoutMs: 10_000 });
  const nextAt = answer.body.indexOf('HTTP/1.1 ');
  const body = nextAt === -1 ? answer.body : answer.body.subarray(0, nextAt);
  const nextStatus = nextAt === -1 ? 0 : Number(answer.body.subarray(nextAt + 9, nextAt + 12).toString('latin1'));
  return { status: answer.status, headers: answer.headers, body, nextStatus };
}
