/**
 * `/healthz`: parts of the server (analytics today) register a function that reports
 * their state, and the answer gathers them. Plain text is one word, `ok` or `degraded`,
 * for load balancers; `Accept: application/json` gets every part's report. Always 200
 * while the process answers: a part that is down degrades the service (lookups go on
 * without analytics), it does not make this process worse than its siblings.
 */
import type { AppResponse } from './app.ts';

/** A part's report: its state and whatever figures explain it. */
export interface PartHealth {
  /** 'ok', 'off' (turned off on purpose) or anything else, which degrades the whole. */
  state: string;
  [detail: string]: unknown;
}

const HEADERS = { 'cache-control': 'no-store' };

export class Health {
  private readonly parts = new Map<string, () => PartHealth>();

  /** Adds a part; `report` is called on every /healthz request, so it must be cheap. */
  register(name: string, report: () => PartHealth): this {
    this.parts.set(name, report);
    return this;
  }

  /** The answer to GET /healthz. */
  reply(accept: string | null): AppResponse {
    const parts = Object.fromEntries([...this.parts].map(([name, report]) => [name, report()]));
    const status = Object.values(parts).every((p) => p.state === 'ok' || p.state === 'off') ? 'ok' : 'degraded';
    if (/^application\/json\b/i.test(accept?.trim() ?? '')) {
      return { status: 200, headers: { ...HEADERS, 'content-type': 'application/json; charset=utf-8' }, body: JSON.stringify({ status, parts }) + '\n' };
    }
    return { status: 200, headers: { ...HEADERS, 'content-type': 'text/plain; charset=utf-8' }, body: `${status}\n` };
  }
}
