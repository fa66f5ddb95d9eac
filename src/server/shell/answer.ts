/**
 * The answer of a page served from its shell: the record spliced in, zstd or gzip when the
 * client takes it (zstd first: as small, and faster to make; page-compress.ts), the page's
 * own headers (type, CSP) with the document set, Vary, and Server-Timing with the server's
 * time from the lookup's start to this answer.
 */
import { oneLine } from '../utils/log.ts';
import { accepts } from '../http/static-site.ts';
import { pageHeaders } from '../http/wire.ts';
import { serverTiming } from '../http/handler.ts';
import type { ShellFor } from './load.ts';
import { zstdPages } from './page-compress.ts';
import type { PageEncoding, PageShell } from './page-shell.ts';

/** An answer as it goes on the wire: status, node's flat header list, body. */
export interface WireAnswer { status: number; headers: string[]; body: Buffer | undefined }

/** What of the request the answer depends on. */
export interface ShellRequest { method: string; acceptEncoding: string | null | undefined; https: boolean; started: number }

/** Answers a page from its shell; undefined when it has none, or its shell failed on this record (logged: Astro renders it). */
export type ShellAnswer = (path: string, locals: App.Locals, req: ShellRequest) => WireAnswer | undefined;

export function createShellAnswer(shellFor: ShellFor): ShellAnswer {
  /** Each shell's headers but length and encoding, plain and behind a TLS proxy (HSTS). */
  const headerLists = new Map<PageShell, string[][]>();
  const headersOf = (shell: PageShell, https: boolean): string[] => {
    let lists = headerLists.get(shell);
    if (!lists) {
      lists = pageHeaders.map((document) => [...Object.entries(document), ...Object.entries(shell.headers), ['vary', 'accept-encoding']].flat());
      headerLists.set(shell, lists);
    }
    return lists[https ? 1 : 0]!.slice();
  };

  return (path, locals, req) => {
    const shell = shellFor(path);
    if (!shell || !locals.lookup) return undefined;
    const encoding = pageEncoding(req.acceptEncoding);
    let body: Buffer;
    try {
      body = shell.fill(locals.lookup, encoding);
    } catch (error) {
      console.error(`${path} from its shell failed, rendering through Astro: ${oneLine(error)}`);
      return undefined;
    }
    const headers = headersOf(shell, req.https);
    if (encoding) headers.push('content-encoding', encoding);
    headers.push('content-length', String(body.length), 'server-timing', serverTiming('page', performance.now() - req.started, 'Lookup and page'));
    return { status: 200, headers, body: req.method === 'HEAD' ? undefined : body };
  };
}

/** zstd when the client takes it and this node has it, else gzip when it takes that. */
export function pageEncoding(acceptEncoding: string | null | undefined, zstd = zstdPages): PageEncoding | undefined {
  if (zstd && accepts(acceptEncoding, 'zstd')) return 'zstd';
  return accepts(acceptEncoding, 'gzip') ? 'gzip' : undefined;
}
