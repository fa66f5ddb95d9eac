/**
 * One download for the data updates (update.ts, refresher.ts): a conditional GET (the
 * last answer's ETag and Last-Modified), a time limit on the whole exchange, body
 * included, and a size cap counted as the body arrives (an answer that announces more is
 * refused before it is read). Redirects are followed by hand, at most MAX_REDIRECTS, and
 * only to the same host (or its `www.` twin, as digitalocean.com sends to
 * www.digitalocean.com): a list or package is never taken from a host its setting does not
 * name. Every failure is a DownloadFailure whose `kind` is a few words of ours, with no URL
 * or upstream text in it, for /healthz; the message, for the log, says the rest.
 * Tested against a local HTTP server serving each fault (tests/list-refresh.test.ts).
 */
import { errorMessage } from '../../lib/error-message.ts';

/** What a previous answer said, to ask only for a change. */
export interface Validators { etag?: string; lastModified?: string }

export interface DownloadOptions extends Validators {
  timeoutMs: number;
  /** Largest body accepted, in bytes. */
  maxBytes: number;
  accept?: string;
}

export type Downloaded =
  | { status: 'not-modified' }
  | { status: 'ok'; body: Buffer; etag?: string; lastModified?: string };

/** Redirects followed before the answer counts as failed. */
export const MAX_REDIRECTS = 5;

/** A failed update step: `kind` is safe to show anyone (/healthz), the message is for the log. */
export class DownloadFailure extends Error {
  readonly kind: string;
  constructor(kind: string, message: string, options?: ErrorOptions) {
    super(message, options);
    this.kind = kind;
  }
}

/** The short public words for any failure: its own kind, or 'failed' for an error of another sort. */
export const failureKind = (error: unknown): string => (error instanceof DownloadFailure ? error.kind : 'failed');

const bare = (host: string) => host.replace(/^www\./, '');

/** Whether a redirect from `from` to `to` stays with the source: the same host, or its www. twin, over http(s). */
export function sameSource(from: URL, to: URL): boolean {
  return (to.protocol === 'https:' || to.protocol === 'http:') && bare(from.hostname) === bare(to.hostname);
}

/** The answer at `url`, following redirects within the source (sameSource). */
async function fetchWithin(url: string, init: RequestInit): Promise<Response> {
  let at = new URL(url);
  for (let hop = 0; ; hop++) {
    const res = await fetch(at, { ...init, redirect: 'manual' });
    if (res.status < 300 || res.status > 399 || res.status === 304) return res;
    await res.body?.cancel();
    const location = res.headers.get('location');
    if (!location) throw new DownloadFailure(`answered ${res.status}`, `${url} answered ${res.status} without a Location`);
    const next = new URL(location, at);
    if (!sameSource(new URL(url), next)) throw new DownloadFailure('redirected to another host', `${url} redirected to ${next.host}, not a host of this source; not followed`);
    if (hop >= MAX_REDIRECTS) throw new DownloadFailure('too many redirects', `${url} redirected more than ${MAX_REDIRECTS} times`);
    at = next;
  }
}

/** Fetches `url`; throws a DownloadFailure on a timeout, an error status, a body past the cap, a redirect elsewhere or a cut connection. */
export async function download(url: string, o: DownloadOptions): Promise<Downloaded> {
  const headers: Record<string, string> = {};
  if (o.accept) headers.accept = o.accept;
  if (o.etag) headers['if-none-match'] = o.etag;
  if (o.lastModified) headers['if-modified-since'] = o.lastModified;
  const signal = AbortSignal.timeout(o.timeoutMs);
  try {
    const res = await fetchWithin(url, { signal, headers });
    if (res.status === 304 && (o.etag || o.lastModified)) {
      await res.body?.cancel();
      return { status: 'not-modified' };
    }
    if (!res.ok) {
      await res.body?.cancel();
      throw new DownloadFailure(`answered ${res.status}`, `${url} answered ${res.status}`);
    }
    const announced = Number(res.headers.get('content-length'));
    if (announced > o.maxBytes) {
      await res.body?.cancel();
      throw new DownloadFailure('too large', `${url} announced ${announced} bytes, over the ${o.maxBytes}-byte cap`);
    }
    const chunks: Buffer[] = [];
    let size = 0;
    for await (const chunk of res.body ?? []) {
      size += chunk.byteLength;
      if (size > o.maxBytes) throw new DownloadFailure('too large', `${url} sent over the ${o.maxBytes}-byte cap`);
      chunks.push(Buffer.from(chunk));
    }
    return { status: 'ok', body: Buffer.concat(chunks), etag: res.headers.get('etag') ?? undefined, lastModified: res.headers.get('last-modified') ?? undefined };
  } catch (error) {
    if (signal.aborted) throw new DownloadFailure('no answer in time', `${url} did not answer within ${o.timeoutMs / 1000} s`);
    if (error instanceof DownloadFailure) throw error;
    const message = errorMessage(error);
    const cause = (error as { cause?: { message?: string } }).cause?.message;
    throw new DownloadFailure('unreachable', `${url}: ${message}${cause ? ` (${cause})` : ''}`, { cause: error });
  }
}
