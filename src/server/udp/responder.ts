/**
 * The message loop of a UDP responder (the STUN one, stun.ts; any other to come): one
 * packet in, at most one answer out, and nothing a packet does can end the process.
 *
 * Per packet, in order: a source port of 0 is dropped (legal on the wire, but node's `send`
 * throws on it); a source port under the responder's `minSourcePort` is dropped (a spoofed
 * source aimed at a UDP service: echo 7, chargen 19, NTP 123 would take the answer, or
 * answer it back; STUN clients send from ephemeral ports); a source past its budget (source-budget.ts; every packet counts, answered
 * or not) is dropped; the answering function decides (no answer: counted as malformed); the
 * answer is sent. A `send` that throws, a send error its callback reports and an answering
 * function that throws are counted; they and the socket's own errors are logged at most
 * once a minute per kind (../utils/log.ts, `RareLog`), never per packet. The counts are this
 * process's: cluster workers share the socket, so each keeps its own counts and budgets.
 */
import { createSocket } from 'node:dgram';
import { isIPv6 } from 'node:net';
import { oneLine, RareLog } from '../utils/log.ts';
import { SourceBudget, type BudgetOptions } from './source-budget.ts';

/** Where a packet came from. */
export interface Peer {
  address: string;
  port: number;
}

/** The answer to one packet from `peer`, or undefined when it gets none (not ours, malformed). */
export type Answerer = (packet: Buffer, peer: Peer) => Buffer | undefined;

/** The part of a dgram socket the loop sends through (tests hand it fakes that fail). */
export interface Sender {
  send(answer: Buffer, port: number, address: string, callback: (error: Error | null) => void): void;
}

/** What the loop did with the packets it was given. */
export interface ResponderCounts {
  /** Answers sent (their send's callback reported no error). */
  answered: number;
  /** Dropped: source port 0. */
  portZero: number;
  /** Dropped: a source port from 1 to under `minSourcePort` (0 when the responder has none). */
  lowPort: number;
  /** Dropped: the source was past its budget. */
  overBudget: number;
  /** Dropped: the answering function gave no answer. */
  malformed: number;
  /** Answers `send` refused or failed to send. */
  sendErrors: number;
  /** Packets whose answering function threw. */
  answerErrors: number;
}

export interface LoopOptions {
  /** The name in log and /healthz lines (`stun`). */
  name: string;
  answer: Answerer;
  /**
   * The lowest source port answered (ports from 1 below it are dropped, counted in `lowPort`);
   * unset: every port but 0. The STUN responder sets 1024 (stun.ts).
   */
  minSourcePort?: number;
  /** The per-source budget; false for none (tests of other things). */
  budget: Omit<BudgetOptions, 'now'> | false;
  /** Where failures are written (default: console.warn, at most once a minute per kind). */
  log?: RareLog;
  /** The clock in milliseconds, for the budget (tests move it). */
  now?: () => number;
}

/** The message loop of one socket: `handle` takes each packet. */
export class PacketLoop {
  readonly counts: ResponderCounts = { answered: 0, portZero: 0, lowPort: 0, overBudget: 0, malformed: 0, sendErrors: 0, answerErrors: 0 };
  /** Sources tracked by the budget, if any. */
  readonly budget: SourceBudget | undefined;
  readonly #sender: Sender;
  readonly #options: LoopOptions;
  readonly #log: RareLog;
  readonly #minSourcePort: number;
  /** One callback for every send: a closure per packet would cost an allocation each. */
  readonly #sent = (error: Error | null): void => {
    if (error) this.#sendFailed(error);
    else this.counts.answered++;
  };

  constructor(sender: Sender, options: LoopOptions) {
    this.#sender = sender;
    this.#options = options;
    this.#log = options.log ?? new RareLog();
    this.#minSourcePort = options.minSourcePort ?? 1;
    this.budget = options.budget ? new SourceBudget({ ...options.budget, now: options.now }) : undefined;
  }

  /** Takes one packet; never throws. */
  handle(packet: Buffer, peer: Peer): void {
    if (peer.port === 0) {
      this.counts.portZero++;
      return;
    }
    if (peer.port < this.#minSourcePort) {
      this.counts.lowPort++;
      return;
    }
    if (this.budget && !this.budget.take(peer.address)) {
      this.counts.overBudget++;
      return;
    }
    let answer: Buffer | undefined;
    try {
      answer = this.#options.answer(packet, peer);
    } catch (error) {
      this.counts.answerErrors++;
      this.#log.log('answer', `${this.#options.name}: answering a packet failed: ${oneLine(error)}`);
      return;
    }
    if (!answer) {
      this.counts.malformed++;
      return;
    }
    try {
      this.#sender.send(answer, peer.port, peer.address, this.#sent);
    } catch (error) {
      this.#sendFailed(error);
    }
  }

  /** Logs a failure of the socket itself, rarely. */
  socketError(error: Error): void {
    this.#log.log('socket', `${this.#options.name}: ${oneLine(error)}`);
  }

  /** One line for /healthz. */
  describe(port: number): string {
    const c = this.counts;
    return `${this.#options.name}: udp ${port}, ${c.answered} answered, ${c.overBudget} over budget, ${c.malformed} malformed, `
      + `${c.portZero} from port 0, ${this.#minSourcePort > 1 ? `${c.lowPort} from ports under ${this.#minSourcePort}, ` : ''}${c.sendErrors} send errors, ${c.answerErrors} answer errors (this process)`;
  }

  #sendFailed(error: unknown): void {
    this.counts.sendErrors++;
    this.#log.log('send', `${this.#options.name}: sending an answer failed: ${oneLine(error)}`);
  }
}

/** A listening responder. */
export interface UdpResponder {
  /** The UDP port it listens on (the chosen one when started on port 0). */
  readonly port: number;
  /** What it did so far (a live view). */
  readonly counts: Readonly<ResponderCounts>;
  /** Its line for /healthz. */
  describe(): string;
  close(): Promise<void>;
}

/**
 * Starts a responder on `host` (an IPv6 host such as `::` takes both families) and `port`
 * (0: a free port, for tests). Rejects when the port cannot be bound.
 */
export function startUdpResponder(host: string, port: number, options: LoopOptions): Promise<UdpResponder> {
  const socket = createSocket({ type: isIPv6(host) ? 'udp6' : 'udp4' });
  const loop = new PacketLoop(socket, options);
  socket.on('message', (packet, peer) => loop.handle(packet, peer));
  return new Promise((resolve, reject) => {
    socket.once('error', reject);
    socket.bind(port, host, () => {
      socket.off('error', reject);
      // After start, an error for one peer must not stop the responder for everyone.
      socket.on('error', (error) => loop.socketError(error));
      const bound = socket.address().port;
      resolve({
        port: bound,
        counts: loop.counts,
        describe: () => loop.describe(bound),
        close: () => new Promise((done) => socket.close(() => done())),
      });
    });
  });
}
