/**
 * Whether a TCP port accepts connections: one connect, closed at once, with a deadline.
 * What the open-port check (handlers/port-api.ts) asks of the caller's own address.
 */
import { connect } from 'node:net';

/** How long a connect may take before the port counts as not reachable. */
export const PROBE_TIMEOUT_MS = 2000;

/** Connects to `ip`:`port`; true when the connection was accepted within `timeoutMs`, false otherwise. Never rejects. */
export function tcpProbe(ip: string, port: number, timeoutMs = PROBE_TIMEOUT_MS): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect({ host: ip, port, timeout: timeoutMs });
    const done = (reachable: boolean) => { socket.destroy(); resolve(reachable); };
    socket.once('connect', () => done(true));
    socket.once('timeout', () => done(false));
    socket.once('error', () => done(false));
  });
}
