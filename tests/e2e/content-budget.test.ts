/**
 * JS budget of the content pages: landing, guide, blog, hub and editorial pages ship
 * 0 bytes of JavaScript (JSON-LD data blocks are not scripts that run). One exception:
 * /trust's visitors' self-reported accuracy, live figures from the analytics store that a
 * static page cannot hold, is one island that loads when it scrolls into view.
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { expect, it } from 'vitest';

const CLIENT = path.resolve('dist/client');
const htmlIn = (dir: string) =>
  readdirSync(path.join(CLIENT, dir)).filter((f) => f.endsWith('.html')).map((f) => path.join(dir, f));

const KINDS: Record<string, string[]> = {
  city: htmlIn('ip-lookup'), isp: htmlIn('isp'), tool: htmlIn('tool'), guide: htmlIn('guide'), blog: htmlIn('blog'),
  hubs: ['tools.html', 'cities.html', 'isps.html', 'guides.html', 'blog.html'],
  editorial: ['seo-insights.html', 'international.html', '404.html'],
};

it.each(Object.entries(KINDS))('ships no JavaScript on %s pages', (_, files) => {
  expect(files.length).toBeGreaterThan(0);
  for (const file of files) {
    const html = readFileSync(path.join(CLIENT, file), 'utf8');
    const scripts = [...html.matchAll(/<script\b[^>]*>/gi)].map(([tag]) => tag);
    expect(scripts.filter((tag) => !/type="application\/ld\+json"/.test(tag)), file).toEqual([]);
    expect(html, file).not.toMatch(/\son[a-z]+=/i);
  }
});

it("ships on /trust only two islands, each loaded when it comes into view: visitors' self-reported accuracy and the fetched lists' ages", () => {
  const html = readFileSync(path.join(CLIENT, 'trust.html'), 'utf8');
  const islands = [...html.matchAll(/<astro-island\b[^>]*>/g)].map(([tag]) => tag);
  expect(islands).toHaveLength(2);
  expect(islands[0]).toMatch(/component-url="\/_astro\/SelfReportedAccuracy\.[\w-]+\.js"/);
  expect(islands[1]).toMatch(/component-url="\/_astro\/ListSourceAges\.[\w-]+\.js"/);
  for (const island of islands) expect(island).toContain('client="visible"');
  expect(html).not.toMatch(/<script\b[^>]*\bsrc=/i);
  expect(html).not.toMatch(/\son[a-z]+=/i);
});
