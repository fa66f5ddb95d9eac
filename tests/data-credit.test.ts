/**
 * The API's data credit: every answer a script reads (JSON, plain text, CSV, errors) links
 * the credits and licences of the data it was made from, as the footer does on pages
 * (src/server/http/data-credit.ts). Pages carry the footer instead.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from './support/http-harness.ts';

let server: TestServer;
beforeAll(async () => { server = await startTestServer(); });
afterAll(() => server.close());

describe('the data credit of machine answers', () => {
  it.each([
    ['GET', '/ip'], ['GET', '/json?ip=8.8.8.8'], ['GET', '/country?ip=1.1.1.1'], ['GET', '/api/lookup/8.8.8.8'],
    ['POST', '/api/lookup/bulk?format=csv'], ['GET', '/api/lookup/not-an-ip'], ['GET', '/api/asn?q=google'],
  ])('%s %s links the licences of its data', async (method, path) => {
    const res = await fetch(server.url + path, { method, body: method === 'POST' ? '["8.8.8.8"]' : undefined });
    expect(res.status).toBeLessThan(500);
    const link = res.headers.get('link');
    expect(link).toMatch(/^<([^>]+)>; rel="license"$/);
    const target = new URL(/^<([^>]+)>/.exec(link!)![1]!, res.url);
    expect(`${target.pathname}${target.hash}`).toBe('/trust#credits');
  });

  it('leaves pages to their footer', async () => {
    const res = await fetch(`${server.url}/robots.txt`);
    expect(res.headers.get('link')).toBeNull();
  });
});
