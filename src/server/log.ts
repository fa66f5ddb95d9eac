/**
 * How the server writes a failure to its log: one line, never a stack trace per request
 * (a flood of odd requests must not become a flood of log lines; tests/hardening.test.ts).
 */

/** An error as one line: its name and message, and where it was thrown (the stack's first frame). */
export function oneLine(error: unknown): string {
  if (!(error instanceof Error)) return String(error).split('\n', 1)[0]!.slice(0, 300);
  const frame = /\n\s+at (.*)/.exec(error.stack ?? '')?.[1];
  const text = `${error.name}: ${error.message.split('\n', 1)[0]}`.slice(0, 300);
  return frame ? `${text} (at ${frame})` : text;
}
