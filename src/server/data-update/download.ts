/**
 * One download for the data updates (update.ts, refresher.ts): a conditional GET (the
 * last answer's ETag and Last-Modified), a time limit on the whole exchange, body
 * included, and a size cap counted as the body arrives (an answer that announces more is
 * refused before it is read). fetch() follows up to 20 redirects and fails on a loop.
 * Tested against a local HTTP server serving each fault (tests/list-refresh.test.ts).
 */

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

/** Fetches `url`; throws with a one-line reason on a timeout, an error status, a body past the cap or a cut connection. */
export async function download(url: string, o: DownloadOptions): Promise<Downloaded> {
  const headers: Record<string, string> = {};
  if (o.accept) headers.accept = o.accept;
  if (o.etag) headers['if-none-match'] = o.etag;
  if (o.lastModified) headers['if-modified-since'] = o.lastModified;
  const signal = AbortSignal.timeout(o.timeoutMs);
  try {
    const res = await fetch(url, { signal, headers });
    if (res.status === 304 && (o.etag || o.lastModified)) {
      await res.body?.cancel();
      return { status: 'not-modified' };
    }
    if (!res.ok) {
      await res.body?.cancel();
      throw new Error(`${url} answered ${res.status}`);
    }
    const announced = Number(res.headers.get('content-length'));
    if (announced > o.maxBytes) {
      await res.body?.cancel();
      throw new Error(`${url} announced ${announced} bytes, over the ${o.maxBytes}-byte cap`);
    }
    const chunks: Buffer[] = [];
    let size = 0;
    for await (const chunk of res.body ?? []) {
      size += chunk.byteLength;
      if (size > o.maxBytes) throw new Error(`${url} sent over the ${o.maxBytes}-byte cap`);
      chunks.push(Buffer.from(chunk));
    }
    return { status: 'ok', body: Buffer.concat(chunks), etag: res.headers.get('etag') ?? undefined, lastModified: res.headers.get('last-modified') ?? undefined };
  } catch (error) {
    if (signal.aborted) throw new Error(`${url} did not answer within ${o.timeoutMs / 1000} s`);
    const message = (error as Error).message;
    if (message.includes(url)) throw error;
    const cause = (error as { cause?: { message?: string } }).cause?.message;
    throw new Error(`${url}: ${message}${cause ? ` (${cause})` : ''}`, { cause: error });
  }
}
