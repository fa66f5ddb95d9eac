/**
 * The floor every route handler stands on: the request and answer shapes, the JSON
 * helpers, the Server-Timing headers and the invalid-address answer. It knows no domain
 * (no lookup, no index, no store). Handler modules (handlers/, rate-limit/limit.ts) import
 * this, never each other; app.ts sends what they answer, with CORS where their route opts
 * in (route-table.ts).
 */
import type * as z from 'zod/mini';
import type { ParsedIp } from '../../lib/ip-address.ts';
import { andThen } from '../utils/maybe-promise.ts';

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
  /**
   * true: readable from any origin (Access-Control-Allow-Origin: *), which the route table
   * sets on the answers of the routes that opt in; false: not, even there (an answer for the
   * operator only, which other sites' pages must not read). Absent: no CORS header.
   */
  cors?: boolean;
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
  if (from >= handlers.length) return undefined;
  const answer = handlers[from]!(req);
  return answer === undefined ? firstAnswer(handlers, req, from + 1) : andThen(answer, (found) => found ?? firstAnswer(handlers, req, from + 1));
}

/** Applies `change` to an answer that may still be pending; passes undefined through. */
export function mapAnswer(answer: ReturnType<Handler>, change: (found: AppResponse) => AppResponse): ReturnType<Handler> {
  return andThen(answer, (found) => found && change(found));
}

/** Added by wire.ts to every answer that says `cors: true`: readable from any origin (no credentials are involved). */
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

/** One Server-Timing entry, as every answer that carries one writes it: its name, its duration in ms (to the µs) and what it measured. */
export const serverTiming = (name: string, ms: number, desc: string): string => `${name};dur=${ms.toFixed(3)};desc="${desc}"`;

/** Server-Timing of one step, readable cross-origin by fetch and by Resource Timing. */
export const exposedTiming = (name: string, ms: number, desc: string): Record<string, string> => ({
  ...EXPOSE_HEADERS,
  'timing-allow-origin': '*',
  'server-timing': serverTiming(name, ms, desc),
});

/** Server-Timing with the lookup's own duration (`memo` when the /json memo answered instead). */
export const timingHeaders = (ms: number, by: 'lookup' | 'memo' = 'lookup'): Record<string, string> =>
  exposedTiming('lookup', ms, by === 'memo' ? 'IP lookup (memo)' : 'IP lookup');

/** Why an input is not an address, the same words in every endpoint and bulk row. */
export const invalidIpMessage = (ip: string): string => `"${ip.slice(0, 64)}" is not a valid IPv4 or IPv6 address.`;

/** The 400 answer for an input that is not an address. */
export const invalidIp = (ip: string): AppResponse => jsonError(400, 'invalid_ip', invalidIpMessage(ip));

/** Reads the body as JSON, or answers the 400 that says it is not JSON. */
export async function readJson(req: AppRequest): Promise<{ value: unknown } | AppResponse> {
  const text = (await req.body()).toString('utf8');
  try {
    return { value: JSON.parse(text) };
  } catch {
    return jsonError(400, 'bad_json', 'The request body is not valid JSON.');
  }
}

/** The first problem a schema found, as one line for a 400 message. */
export const describeIssue = (error: z.core.$ZodError): string => {
  const issue = error.issues[0];
  return issue ? `${issue.path.join('.') || 'body'}: ${issue.message}` : 'The request body does not have the expected shape.';
};
