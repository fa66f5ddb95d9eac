/**
 * renderCaptured against renderers that play Astro's node handler: what the render is handed,
 * and what comes back of what it wrote, whether it ended its answer, wrote nothing, failed or
 * destroyed the response.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { describe, expect, it } from 'vitest';
import { renderCaptured, type PageRenderer } from './render-capture.ts';

const LOCALS = { clientIp: '192.0.2.1' } as App.Locals;

describe('renderCaptured', () => {
  it('hands the render a GET of the URL from loopback, asking for HTML, with the locals', async () => {
    let seen: { req: IncomingMessage; res: ServerResponse; locals: App.Locals } | undefined;
    await renderCaptured(async (req, res, locals) => { seen = { req, res, locals }; res.end(); }, '/lookup/192.0.2.1?x=1', LOCALS);
    const { req, res, locals } = seen!;
    expect([req.url, req.method, req.headers]).toEqual(['/lookup/192.0.2.1?x=1', 'GET', { host: 'localhost', accept: 'text/html' }]);
    expect([req.socket.remoteAddress, req.socket.destroyed]).toEqual(['127.0.0.1', false]);
    expect(res.req).toBe(req);
    expect(locals).toBe(LOCALS);
  });

  it('takes the status, the headers (lower-case names, set or in the head) and every chunk', async () => {
    const render: PageRenderer = async (_, res) => {
      expect(res.headersSent).toBe(false);
      res.setHeader('X-Set', 'one');
      res.writeHead(201, { 'Content-Type': 'text/html', 'X-Head': 2 as never });
      expect(res.headersSent).toBe(true);
      expect(res.write('<p>é')).toBe(true);
      res.write(Buffer.from('</p>'));
      res.end(new TextEncoder().encode('<i>end</i>'));
    };
    expect(await renderCaptured(render, '/', LOCALS)).toEqual({
      status: 201, headers: { 'x-set': 'one', 'content-type': 'text/html', 'x-head': '2' }, html: '<p>é</p><i>end</i>', ended: true,
    });
  });

  it('ends with or without a last chunk, and tells the render it finished', async () => {
    let finished = 0;
    const render: PageRenderer = async (_, res) => {
      res.on('finish', () => finished++);
      res.writeHead(200);
      res.write('all');
      res.end();
    };
    expect(await renderCaptured(render, '/', LOCALS)).toEqual({ status: 200, headers: {}, html: 'all', ended: true });
    expect(finished).toBe(1);
  });

  it('answers once the render ended its answer, though the render itself goes on', async () => {
    const render: PageRenderer = (_, res) => {
      res.writeHead(200);
      res.end('early');
      return new Promise(() => {});
    };
    expect(await renderCaptured(render, '/', LOCALS)).toEqual({ status: 200, headers: {}, html: 'early', ended: true });
  });

  it('gives status 0 and not ended for a render that wrote nothing (no route)', async () => {
    expect(await renderCaptured(async () => {}, '/nowhere', LOCALS)).toEqual({ status: 0, headers: {}, html: '', ended: false });
  });

  it('gives what a failed render wrote, not ended', async () => {
    const render: PageRenderer = async (_, res) => {
      res.writeHead(200, { 'content-type': 'text/html' });
      res.write('<p>half');
      throw new Error('broke');
    };
    expect(await renderCaptured(render, '/', LOCALS)).toEqual({ status: 200, headers: { 'content-type': 'text/html' }, html: '<p>half', ended: false });
  });

  it('gives what was written when the render destroys the response, not ended', async () => {
    const render: PageRenderer = (_, res) => {
      res.writeHead(200);
      res.write('<p>cut');
      res.destroy();
      return new Promise(() => {});
    };
    expect(await renderCaptured(render, '/', LOCALS)).toEqual({ status: 200, headers: {}, html: '<p>cut', ended: false });
  });
});
