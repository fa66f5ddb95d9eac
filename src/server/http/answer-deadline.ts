/**
 * Dispatch's last resort: whatever a handler or a page render leaves unanswered still gets
 * an answer, and its socket back. An answer made asynchronously is watched until its maker
 * is done: done without having answered (Astro found no route for a page and called
 * `next()`), it gets `unanswered`; not done by the deadline, it gets `overdue`. Either is a
 * defect of ours; app.ts (beside this file) answers them (404, 503) and logs them.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';

/**
 * How long the server may take over one answer once the request has arrived: longer than
 * any handler's own time limit (the analytics queries' 5 s, src/server/handlers/analytics-api.ts),
 * so that a slow part answers its own error first; a page renders in milliseconds.
 */
export const ANSWER_DEADLINE_MS = 10_000;

/** The answers of last resort: each writes a complete answer on a response nothing has been written to. */
export interface LastResort {
  /** Its maker is done and wrote nothing. */
  unanswered(): void;
  /** Its maker is not done after the deadline. */
  overdue(): void;
}

/**
 * Watches `pending`, which settles when an answer's maker is done, and answers in its place
 * when it did not. The deadline counts the server's time: while the client is still
 * sending its body, it starts again (that time is bounded by the server's requestTimeout,
 * which node answers with 408). An answer already begun when the deadline passes cannot be
 * replaced: its socket is closed. Settles as `pending` does, once the fallback is chosen.
 */
export function watchAnswer(req: IncomingMessage, res: ServerResponse, pending: Promise<void>, deadlineMs: number, fallback: LastResort): Promise<void> {
  let timer: NodeJS.Timeout;
  const expire = () => {
    // Gone (the client left, or node cut a slow body): nothing to answer, nothing to watch.
    if (res.destroyed) return;
    if (!req.complete) timer = setTimeout(expire, deadlineMs).unref();
    else if (res.headersSent) res.destroy();
    else fallback.overdue();
  };
  timer = setTimeout(expire, deadlineMs).unref();
  return pending.then(() => {
    clearTimeout(timer);
    if (res.destroyed) return;
    if (!res.headersSent) fallback.unanswered();
    // Begun and left unfinished: nothing more will come, and the client would wait for it.
    else if (!res.writableEnded) res.destroy();
  }, (error: unknown) => {
    clearTimeout(timer);
    throw error;
  });
}
