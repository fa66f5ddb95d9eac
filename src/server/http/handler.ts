/**
 * The floor every route handler stands on: the request and answer shapes, the JSON
 * helpers, the timing headers, the invalid-address answer and the timed lookup. Handler
 * modules (handlers/, rate-limit/limit.ts) import this and the engine, never each other;
 * app.ts sends what they answer and adds CORS to every such answer.
 */
import type * as z from 'zod/mini';
import type { ParsedIp } from '../../lib/ip-address.ts';
import type { LookupResponse } from '../../lib/record.ts';
import { InvalidIpError, type Engine, type LookupContext } from '../lookup/engine.ts';

/** A request as route handlers see it: parsed, with the derived client address. */
export interface AppRequest {
  method: string;
  path: string;
  query: URLSearchParams;
  headers: { get(name: string): string | null };
  clientIp: string;
  /** The same address parsed; undefined only when the socket reports no usable peer. */
  clientAddress: ParsedIp | undefined;
  /** Reads the body, rejecting with BodyTooLarge past the configured limit. */
  body(): Promise<Buffer>;
}

/** What a handler answers. */
export interface AppResponse {
  status: number;
  headers?: Record<string, string>;
  body?: string | Uint8Array;
  /** false: no CORS header (an answer for the operator only, which other sites' pages must not read). */
  cors?: false;
}

/** A route handler: answers, or returns undefined to pass the request on. */
export type Handler = (req: AppRequest) => AppResponse | undefined | Promise<AppResponse | undefined>;

/** Thrown by `AppRequest.body()` past the configured body limit (answered 413). */
export class BodyTooLarge extends Error {}

/**
 * Asks the handlers in order and returns the first answer. Synchronous until one answers
 * with a promise: /ip and the memo'd /json never enter the promise machinery.
 */
export function firstAnswer(handlers: readonly Handler[], req: AppRequest, from = 0): ReturnType<Handler> {
  for (let i = from; i < handlers.length; i++) {
    const answer = handlers[i]!(req);
    if (answer instanceof Promise) return answer.then((found) => found ?? firstAnswer(handlers, req, i + 1));
    if (answer) return answer;
  }
  return undefined;
}

/** Applies `change` to an answer that may still be pending; passes undefined through. */
export function mapAnswer(answer: ReturnType<Handler>, change: (found: AppResponse) => AppResponse): ReturnType<Handler> {
  if (answer instanceof Promise) return answer.then((found) => found && change(found));
  return answer && change(answer);
}

/** Added by wire.ts to every handler answer unless it says `cors: false`: readable from any origin (no credentials are involved). */
export const CORS_HEADERS: Readonly<Record<string, string>> = { 'access-control-allow-origin': '*' };

/**
 * On answers that carry Server-Timing or RateLimit headers, which cross-origin scripts may
 * read only when named here (an answer without them has nothing to expose).
 */
export const EXPOSE_HEADERS: Readonly<Record<string, string>> = {
  'access-control-expose-headers': 'Server-Timing, RateLimit-Limit, RateLimit-Remaining, RateLimit-Reset, Retry-After',
};

const JSON_TYPE = 'application/json; charset=utf-8';

/** A JSON answer whose body is already serialized, as text or its UTF-8 bytes (the /json memo keeps bodies, not values). */
export function jsonText(status: number, body: string | Uint8Array, headers: Record<string, string> = {}): AppResponse {
  return { status, headers: { 'content-type': JSON_TYPE, 'cache-control': 'private, no-store', ...headers }, body };
}

/** A JSON answer; per-visitor (`private, no-store`) unless the caller says otherwise. */
export function json(status: number, value: unknown, headers: Record<string, string> = {}): AppResponse {
  return jsonText(status, JSON.stringify(value) + '\n', headers);
}

/** A JSON error in the API's one shape: `{ error: { code, message } }`. */
export function jsonError(status: number, code: string, message: string, headers: Record<string, string> = {}): AppResponse {
  return json(status, { error: { code, message } }, headers);
}

/** A plain-text answer of one line. */
export function text(status: number, line: string, headers: Record<string, string> = {}): AppResponse {
  return { status, headers: { 'content-type': 'text/plain; charset=utf-8', 'cache-control': 'private, no-store', ...headers }, body: line + '\n' };
}

/** 405 with the Allow header, in the API's error shape. */
export const methodNotAllowed = (allow: string, message = `Use ${allow.replace(', HEAD', '')} here.`): AppResponse =>
  jsonError(405, 'method_not_allowed', message, { allow });

/**
 * Server-Timing with the lookup's own duration (`memo` when the /json memo answered
 * instead), readable cross-origin by fetch and by Resource Timing.
 */
export const timingHeaders = (ms: number, by: 'lookup' | 'memo' = 'lookup'): Record<string, string> => ({
  ...EXPOSE_HEADERS,
  'timing-allow-origin': '*',
  'server-timing': `lookup;dur=${ms.toFixed(3)};desc="${by === 'memo' ? 'IP lookup (memo)' : 'IP lookup'}"`,
});

/** Why an input is not an address, the same words in every endpoint and bulk row. */
export const invalidIpMessage = (ip: string): string => `"${ip.slice(0, 64)}" is not a valid IPv4 or IPv6 address.`;

/** The 400 answer for an input that is not an address. */
export const invalidIp = (ip: string): AppResponse => jsonError(400, 'invalid_ip', invalidIpMessage(ip));

/** Looks an address up and times it for Server-Timing; undefined when the address is invalid. */
export function timedLookup(engine: Engine, ip: string, ctx?: LookupContext): { result: LookupResponse; ms: number } | undefined {
  const start = performance.now();
  try {
    const result = engine.lookup(ip, ctx);
    return { result, ms: performance.now() - start };
  } catch (error) {
    if (error instanceof InvalidIpError) return undefined;
    throw error;
  }
}

/** Reads the body as JSON, or answers the 400 that says it is not JSON. */
export async function readJson(req: AppRequest): Promise<{ value: unknown } | AppResponse> {
  const text = (await req.body()).toString('utf8');
  try {
    return { value: JSON.parse(text) };
  } catch {
    return jsonError(400, 'bad_json', 'The request body is not valid JSON.');
  }
}

/** The first validation issue, worded for a 400 message. */
/** The first problem a schema found, as one line for a 400 message. */
export const describeIssue = (error: z.core.$ZodError): string => {
  const issue = error.issues[0];
  return issue ? `${issue.path.join('.') || 'body'}: ${issue.message}` : 'The request body does not have the expected shape.';
};
