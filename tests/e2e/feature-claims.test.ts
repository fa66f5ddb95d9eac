/**
 * Every feature the FAQ, /trust and the tool pages name exists: the content gives each
 * claim a link (tests/content.test.ts checks an FAQ answer that names the site has one),
 * the page that makes the claim shows that link, and the link answers 200 on the built
 * server, with its #anchor present on the page it opens.
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { sharedServer, type SharedServer } from '../support/e2e-fixture.ts';

const CONTENT = path.resolve('content');
const readJson = <T>(file: string): T => JSON.parse(readFileSync(path.join(CONTENT, file), 'utf8')) as T;

interface Claim { page: string; claim: string; href: string }

function claims(): Claim[] {
  const out: Claim[] = [];
  for (const file of readdirSync(path.join(CONTENT, 'tools')).filter((f) => f.endsWith('.json'))) {
    const tool = readJson<{ features: Array<{ title: string; href: string }> }>(`tools/${file}`);
    for (const f of tool.features) out.push({ page: `/tool/${file.slice(0, -5)}`, claim: f.title, href: f.href });
  }
  for (const f of readJson<Array<{ id: string; links?: Array<{ label: string; href: string }> }>>('site/faqs.json')) {
    for (const l of f.links ?? []) out.push({ page: '/seo-insights', claim: `FAQ ${f.id}: ${l.label}`, href: l.href });
  }
  for (const m of readJson<Array<{ title: string; href?: string }>>('site/trust-metrics.json')) {
    if (m.href) out.push({ page: '/trust', claim: m.title, href: m.href });
  }
  for (const p of readJson<Array<{ host: string; href: string }>>('site/outside-parties.json')) {
    out.push({ page: '/trust', claim: p.host, href: p.href });
  }
  return out;
}

// A browser's request: `/` answers command-line clients with the bare address instead.
const BROWSER = { 'user-agent': 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0 Safari/537.36', accept: 'text/html' };

let server: SharedServer;
const bodies = new Map<string, Promise<{ status: number; body: string }>>();
/** One GET per distinct path and query. */
function get(target: string): Promise<{ status: number; body: string }> {
  let answer = bodies.get(target);
  if (!answer) {
    answer = fetch(server.url + target, { headers: BROWSER, redirect: 'manual' }).then(async (r) => ({ status: r.status, body: await r.text() }));
    bodies.set(target, answer);
  }
  return answer;
}

beforeAll(() => { server = sharedServer(); });

const all = claims();

describe('feature claims', () => {
  it('finds claims to check on every kind of page', () => {
    expect(new Set(all.map((c) => c.page.replace(/\/tool\/.*/, '/tool/*')))).toEqual(new Set(['/tool/*', '/seo-insights', '/trust']));
  });

  it.each(all.map((c) => [`${c.page} "${c.claim}" → ${c.href}`, c] as const))('%s', async (_, { page, href }) => {
    const shown = await get(page);
    expect(shown.status, `${page} itself`).toBe(200);
    expect(shown.body, `${page} does not link to ${href}`).toContain(`href="${href}"`);
    const url = new URL(href, server.url);
    const target = await get(url.pathname + url.search);
    expect(target.status, `${url.pathname}${url.search} answers ${target.status}`).toBe(200);
    const id = decodeURIComponent(url.hash.slice(1));
    // An id attribute itself (after whitespace), not the tail of data-testid="…".
    const ids = new Set([...target.body.matchAll(/\sid="([^"]+)"/g)].map((m) => m[1]));
    if (id) expect(ids.has(id), `no element with id "${id}" on ${url.pathname}`).toBe(true);
  });
});
