/**
 * Renders one on-demand page through Astro's node handler without a socket: the request
 * and response it gets are just enough of node's to read from and write into. The `/`
 * shell is compiled from such a render at start (page-shell.ts).
 */
import { EventEmitter } from 'node:events';
import type { IncomingMessage, ServerResponse } from 'node:http';

/** Renders an on-demand page through Astro (its node handler), with locals for the page. */
export type PageRenderer = (req: IncomingMessage, res: ServerResponse, locals: App.Locals) => Promise<void>;

/** What a render wrote: status 0 when it wrote no head; `ended` false when it stopped before its end. */
export interface CapturedPage { status: number; headers: Record<string, string>; html: string; ended: boolean }

/** Renders `url` with `locals` and returns what Astro wrote, once it ended its answer or the render is done. */
export async function renderCaptured(render: PageRenderer, url: string, locals: App.Locals): Promise<CapturedPage> {
  const socket = Object.assign(new EventEmitter(), { remoteAddress: '127.0.0.1', destroyed: false });
  const req = Object.assign(new EventEmitter(), { url, method: 'GET', headers: { host: 'localhost', accept: 'text/html' }, socket });
  const chunks: Buffer[] = [];
  let status = 0;
  let ended = false;
  const headers: Record<string, string> = {};
  const done = new Promise<void>((resolve) => {
    const events = new EventEmitter();
    const res = Object.assign(events, {
      req,
      statusMessage: '',
      headersSent: false,
      setHeader(name: string, value: string) { headers[name.toLowerCase()] = String(value); },
      writeHead(code: number, head?: Record<string, string | string[]>) {
        status = code;
        for (const [name, value] of Object.entries(head ?? {})) headers[name.toLowerCase()] = String(value);
        this.headersSent = true;
        return this;
      },
      write(chunk: Uint8Array | string) { chunks.push(Buffer.from(chunk)); return true; },
      end(chunk?: Uint8Array | string) {
        if (chunk) chunks.push(Buffer.from(chunk));
        ended = true;
        events.emit('finish');
        resolve();
        return this;
      },
      destroy() { resolve(); },
    });
    // Done without ending (no route: Astro calls next()), or failed: what it wrote is all there is.
    render(req as unknown as IncomingMessage, res as unknown as ServerResponse, locals).then(() => resolve(), () => resolve());
  });
  await done;
  return { status, headers, html: Buffer.concat(chunks).toString('utf8'), ended };
}
