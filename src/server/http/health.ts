/**
 * `/healthz`: parts of the server (analytics, the databases) register a function that
 * reports their state, others (the rate-limit store, the data sources) a few `name: state`
 * lines, and the answer gathers them. Plain text starts with one word, `ok` or `degraded`,
 * for load balancers, then the lines; `Accept: application/json` gets every part's report
 * and the lines. Always 200 while the process answers: a part that is down degrades the
 * service (lookups go on without analytics), it does not make this process worse than its
 * siblings.
 *
 * States, counts and ages only: the answer is for anyone who asks, so no file path, URL,
 * upstream text or stack frame is in it (publicText takes out any a part let through; the
 * log has the details), and it carries no CORS header: no other site's page reads it.
 */
import type { AppResponse } from './handler.ts';

/** A part's report: its state and whatever figures explain it. */
export interface PartHealth {
  /** 'ok', 'off' (turned off on purpose) or anything else, which degrades the whole. */
  state: string;
  [detail: string]: unknown;
}

const HEADERS = { 'cache-control': 'no-store' };

/**
 * A line as anyone may read it: a URL becomes `<url>`, an absolute file path its file's
 * name, and nothing after a line break (a stack trace) is kept.
 */
export function publicText(text: string): string {
  return text.split('\n', 1)[0]!
    .replace(/\b[a-z][a-z0-9+.-]*:\/\/[^\s'"()<>]+/gi, '<url>')
    .replace(/(^|[\s('"=:])(?:[A-Za-z]:)?[\\/](?:[^\s'"()\\/]+[\\/])+([^\s'"()\\/]*)/g, (_, before: string, file: string) => `${before}${file || '.'}`);
}

/** A part's report with every string in it made public (publicText). */
function publicReport(report: PartHealth): PartHealth {
  const clean = (value: unknown): unknown =>
    typeof value === 'string' ? publicText(value) : Array.isArray(value) ? value.map(clean) : value && typeof value === 'object' ? Object.fromEntries(Object.entries(value).map(([k, v]) => [k, clean(v)])) : value;
  return clean(report) as PartHealth;
}

export class Health {
  private readonly parts = new Map<string, () => PartHealth>();
  private readonly notes: Array<() => string[]> = [];

  /** Adds a part; `report` is called on every /healthz request, so it must be cheap. */
  register(name: string, report: () => PartHealth): this {
    this.parts.set(name, report);
    return this;
  }

  /**
   * Adds `name: state` lines listed under the first word (they do not degrade it). Parts
   * started after the app is built add theirs then (main.ts: the STUN responder's).
   */
  note(lines: () => string[]): this {
    this.notes.push(lines);
    return this;
  }

  /**
   * In a cluster, every worker's state (cluster-health.ts): listed first, and `degraded`
   * when any worker is.
   */
  cluster(workers: () => { degraded: boolean; lines: string[] }): this {
    this.workers = workers;
    return this;
  }

  private workers: (() => { degraded: boolean; lines: string[] }) | undefined;

  /** This process's own first word and each part's state, as its reports to the cluster carry them. */
  summary(): { status: 'ok' | 'degraded'; parts: Record<string, string> } {
    const parts = Object.fromEntries([...this.parts].map(([name, report]) => [name, publicText(report().state)]));
    return { status: Object.values(parts).every((state) => state === 'ok' || state === 'off') ? 'ok' : 'degraded', parts };
  }

  /** The answer to GET /healthz. */
  reply(accept: string | null): AppResponse {
    const parts = Object.fromEntries([...this.parts].map(([name, report]) => [name, publicReport(report())]));
    const cluster = this.workers?.();
    const own = Object.values(parts).every((p) => p.state === 'ok' || p.state === 'off');
    const status = own && !cluster?.degraded ? 'ok' : 'degraded';
    const notes = [...(cluster?.lines ?? []), ...this.notes.flatMap((lines) => lines())].map(publicText);
    if (/^application\/json\b/i.test(accept?.trim() ?? '')) {
      return { status: 200, cors: false, headers: { ...HEADERS, 'content-type': 'application/json; charset=utf-8' }, body: JSON.stringify({ status, parts, notes }) + '\n' };
    }
    return { status: 200, cors: false, headers: { ...HEADERS, 'content-type': 'text/plain; charset=utf-8' }, body: [status, ...notes].join('\n') + '\n' };
  }
}
