/**
 * The prebuilt `/` shell (src/server/shell/): the page it splices for a record is the page
 * Astro renders for that record, byte for byte but for the islands' uid attribute (a hash
 * of their props, which Astro recomputes and the shell keeps); hostile text stays inert;
 * gzip decodes to the same page; the server sends it with Vary and Server-Timing.
 * Needs the build (npm test builds first).
 */
import { createHash } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { get, type IncomingHttpHeaders } from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { crc32, gunzipSync, zstdDecompressSync } from 'node:zlib';
import fc from 'fast-check';
import { createElement } from 'react';
import { renderToString as reactRenderToString } from 'react-dom/server';
import { serializeProps } from 'astro/runtime/server/serialize.js';
import { escapeHTML } from 'astro/runtime/server/escape.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LookupResponse } from '../src/lib/record.ts';
import { loadConfig, type Config } from '../src/server/config.ts';
import { createRoutes, type Routes } from '../src/server/routes.ts';
import { loadPageRenderer } from '../src/server/server.ts';
import { PAGE_RECORD_ID, pageRecordJson } from '../src/islands/page-record.ts';
import { readProps } from '../src/server/shell/astro-props.ts';
import { escapeText } from '../src/server/shell/jsx-string.ts';
import { loadIslandBundle, loadShells, PLACEHOLDERS, withoutUids } from '../src/server/shell/load.ts';
import { PageShell, ShellError, type IslandBundle } from '../src/server/shell/page-shell.ts';
import { renderCaptured } from '../src/server/shell/render-capture.ts';
import type { PageRenderer } from '../src/server/shell/render-capture.ts';
import { startTestServer, type TestServer } from './support/http-harness.ts';
import { rawHead } from './support/raw-http.ts';

/** The pages routes.ts serves from a shell (their route rows say `shell: true`). */
const SHELL_PAGES = [{ path: '/', prefix: false }, { path: '/ip-2', prefix: false }, { path: '/lookup/', prefix: true }];

const BROWSER = 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/142.0.0.0 Safari/537.36';
const HOSTILE = '</script><script>alert(1)</script>';

let dataDir: string;
let config: Config;
let routes: Routes;
let render: PageRenderer;
let bundle: IslandBundle;
const shells = new Map<string, PageShell>();

const locals = (lookup: LookupResponse): App.Locals => ({ clientIp: lookup.data.ip, lookup, clientConfig: config.client, query: lookup.data.ip });
const lookupOf = (ip: string): LookupResponse =>
  routes.engine.lookup(ip, { headers: { get: (name: string) => name === 'user-agent' ? BROWSER : null } });
/** A page's locals without its record. */
const withoutLookup = (pageLocals: App.Locals): App.Locals => ({ ...pageLocals, lookup: null });
/** The page's path for a record: an address's page names the address. */
const pathOf = (page: string, lookup: LookupResponse) => page === '/lookup/' ? page + lookup.data.ip : page;
/** What Astro renders, uid attributes left out (see the header). */
const astroPage = async (page: string, lookup: LookupResponse) => withoutUids((await renderCaptured(render, pathOf(page, lookup), locals(lookup))).html);
const shellPage = (page: string, lookup: LookupResponse) => withoutUids(shells.get(page)!.fill(lookup).toString('utf8'));
const PAGES = ['/', '/ip-2', '/lookup/'];

/** A record with every optional part empty: no place, no network, no device, no checks. */
function bare(record: LookupResponse): LookupResponse {
  const data = { ...record.data, city: '', region: '', postal: '', timezone: '', isp: '', org: '', asn: '', asn_org: '',
    distance_consensus: null, place_source: null, rtt_ms: null, reserved: null,
    privacy: { ...record.data.privacy, vpn: null, proxy: null, tor: null, relay: null, hosting: null, service: null } };
  return { ...record, data, device: null, sources_used: [] };
}

/** A record whose texts try to break out of the page: tags, quotes, ampersands. */
function hostile(record: LookupResponse): LookupResponse {
  return {
    ...record,
    data: {
      ...record.data, city: HOSTILE, region: '"quoted" & <b>bold</b>', country_name: "O'Land &amp; <i>", isp: `'single' & "double" < >`,
      postal: '&lt;', timezone: '\u2028\\"', asn_org: HOSTILE,
      vpn: { detected: true, confidence: 90, indicators: [HOSTILE, '"x"'], reasons: ['<img src=x onerror=alert(1)>', "it's & so"] },
      privacy: { ...record.data.privacy, service: HOSTILE },
    },
  };
}

beforeAll(async () => {
  dataDir = mkdtempSync(path.join(tmpdir(), 'page-shell-'));
  config = loadConfig({ ANALYTICS: 'off', DATA_DIR: dataDir, STUN_PORT: '0', REVERSE_DNS: 'off' });
  routes = await createRoutes(config, 'dist');
  const renderer = await loadPageRenderer('dist');
  const islands = await loadIslandBundle('dist');
  if (!renderer || !islands) throw new Error('tests/page-shell.test.ts needs the build: run npm run build');
  render = renderer;
  bundle = islands;
  const placeholder = lookupOf(PLACEHOLDERS[0]);
  for (const page of PAGES) shells.set(page, PageShell.compile(await renderCaptured(render, pathOf(page, placeholder), locals(placeholder)), placeholder, bundle));
}, 60_000);
afterAll(async () => {
  await routes?.analytics.close();
  rmSync(dataDir, { recursive: true, force: true });
});

describe('the spliced page is the page Astro renders', () => {
  const cases: Array<[string, () => LookupResponse]> = [
    ['an IPv4 address', () => lookupOf('81.2.69.160')],
    ['an IPv6 address', () => lookupOf('2001:4860:4860::8888')],
    ['a reserved address', () => lookupOf('127.0.0.1')],
    ['a record with every optional part empty', () => bare(lookupOf('81.2.69.160'))],
    ['a record with hostile texts', () => hostile(lookupOf('81.2.69.160'))],
    ['a hostile reserved record', () => hostile(lookupOf('10.1.2.3'))],
  ];
  for (const page of PAGES) {
    it.each(cases)(`${page}: %s`, async (_, make) => {
      const lookup = make();
      expect(shellPage(page, lookup)).toBe(await astroPage(page, lookup));
    });
  }

  it('for records with arbitrary texts', async () => {
    const base = lookupOf('81.2.69.160');
    const text = fc.string({ unit: fc.constantFrom('a', ' ', '<', '>', '&', '"', "'", '/', '\\', 'é', '\u2028', '😀', '\n', '-'), maxLength: 12 });
    await fc.assert(fc.asyncProperty(text, text, text, fc.boolean(), async (city, isp, reason, detected) => {
      const lookup = { ...base, data: { ...base.data, city, isp, vpn: { detected, confidence: 50, indicators: detected ? ['name'] : [], reasons: detected ? [reason] : [] } } };
      for (const page of PAGES) expect(shellPage(page, lookup)).toBe(await astroPage(page, lookup));
    }), { numRuns: 25 });
  }, 60_000);

  it('keeps hostile texts inert: escaped in the text, the record once in a data block that reads back', () => {
    const lookup = hostile(lookupOf('81.2.69.160'));
    const html = shells.get('/')!.fill(lookup).toString('utf8');
    expect(html).not.toContain('<script>alert(1)');
    expect(html).not.toContain('<img src=x');
    expect(html).toContain('&lt;/script&gt;&lt;script&gt;alert(1)&lt;/script&gt;');
    // The islands hydrate from the page's one data block: it reads back to the hostile record.
    const blocks = [...html.matchAll(new RegExp(`<script type="application/json" id="${PAGE_RECORD_ID}">([^<]*)</script>`, 'g'))];
    expect(blocks).toHaveLength(1);
    expect(JSON.parse(blocks[0]![1]!)).toEqual(lookup);
    // Their props carry the marker, not the record.
    const props = [...html.matchAll(/<astro-island [^>]*component-url="[^"]*\/(\w+)\.[^"]*"[^>]*props="([^"]*)"/g)]
      .filter((m) => readProps(m[2]!).initial !== undefined).map((m) => [m[1], readProps(m[2]!).initial]);
    expect(props).toEqual(['IpBox', 'BadgeRow', 'DetailCards', 'VerificationCard', 'VpnPanel'].map((name) => [name, { from: 'page' }]));
    expect(html.split(lookup.data.city).length).toBe(1);
  });
});

/** The page's record block moved to the end of its body, after every island. */
const recordLast = (html: string): string => {
  const block = new RegExp(`<script type="application/json" id="${PAGE_RECORD_ID}">[^<]*</script>`).exec(html)![0];
  return html.replace(block, '').replace('</body>', `${block}</body>`);
};
/** Astro's end mark left out of every island, as it writes an island without children. */
const noEndMarks = (html: string): string => html.replaceAll('<!--astro:end-->', '');
/** The props attribute left out of an island that does not take the record (the map). */
const mapWithoutProps = (html: string): string => html.replace(/(<astro-island [^>]*MapWidget[^>]*?) props="[^"]*"/, '$1');

describe('a shell compiled from a page', () => {
  const other = () => hostile(lookupOf('2001:4860:4860::8888'));

  it.each(PAGES)('%s: cut for one record, gives Astro\'s page for another, with the page\'s own headers', async (page) => {
    const placeholder = lookupOf(PLACEHOLDERS[0]);
    const captured = await renderCaptured(render, pathOf(page, placeholder), locals(placeholder));
    const shell = PageShell.compile(captured, placeholder, bundle);
    const lookup = other();
    expect(withoutUids(shell.fill(lookup).toString('utf8'))).toBe(await astroPage(page, lookup));
    expect(shell.headers).toEqual({ 'content-type': captured.headers['content-type'], 'content-security-policy': captured.headers['content-security-policy'] });
    expect(shell.headers['content-security-policy']).toMatch(/script-src 'self' 'sha256-/);
  });

  it('takes of the page\'s headers only its type and CSP, and only those it has', async () => {
    const placeholder = lookupOf(PLACEHOLDERS[0]);
    const captured = await renderCaptured(render, '/', locals(placeholder));
    const shell = PageShell.compile({ ...captured, headers: { 'content-type': 'text/html', 'x-other': 'no' } }, placeholder, bundle);
    expect(shell.headers).toStrictEqual({ 'content-type': 'text/html' });
  });

  it.each<[string, (html: string) => string]>([
    ['the record after the islands', recordLast],
    ['islands without an end mark', noEndMarks],
    ['an island without props', mapWithoutProps],
  ])('cuts a page with %s', async (_, change) => {
    const placeholder = lookupOf(PLACEHOLDERS[0]);
    const captured = await renderCaptured(render, '/lookup/' + placeholder.data.ip, locals(placeholder));
    expect(change(captured.html)).not.toBe(captured.html);
    const shell = PageShell.compile({ ...captured, html: change(captured.html) }, placeholder, bundle);
    const lookup = other();
    expect(withoutUids(shell.fill(lookup).toString('utf8'))).toBe(change(await astroPage('/lookup/', lookup)));
  });
});

describe('escaping, as Astro and React do it', () => {
  const texts = ['<', '>', '&', '"', "'", HOSTILE, '&amp;', '\\', '\u2028', '\u0000', '\ud800', 'plain', ''];

  it.each(texts)('a record holding %j is a data block no text can end, and reads back', (text) => {
    const base = lookupOf('81.2.69.160');
    const lookup = { ...base, data: { ...base.data, city: text, isp: `${text}<!--${text}` } };
    const block = pageRecordJson(lookup);
    // In a script element only `<` can end it (`</script`) or change its state (`<!--`).
    expect(block).not.toContain('<');
    expect(JSON.parse(block)).toEqual(lookup);
  });

  it.each(texts)('props holding %j read back as Astro wrote them', (text) => {
    const value = { s: text, n: [1.5, -2, null, true, { [text]: text }], u: undefined };
    expect(readProps(escapeHTML(serializeProps({ v: value }, {} as never)))).toEqual({ v: value });
  });

  it.each(texts.filter((t) => t !== '\u0000'))('text %j is escaped as React escapes it, in text and in attributes', (text) => {
    expect(`<p title="${escapeText(text)}">${escapeText(text)}</p>`).toBe(reactRenderToString(createElement('p', { title: text }, text)));
  });

});

/** Each encoding of a shell page, with what decodes it. */
const ENCODINGS = [['gzip', gunzipSync], ['zstd', zstdDecompressSync]] as const;

describe('a shell page compressed', () => {
  it.each(ENCODINGS)('in %s decodes to the page, first compressed fast and then, seen again, smaller and kept', (encoding, decode) => {
    const shell = shells.get('/')!;
    const lookup = lookupOf(encoding === 'gzip' ? '81.2.69.161' : '81.2.69.167');
    const html = shell.fill(lookup);
    const first = shell.fill(lookup, encoding);
    const again = shell.fill(lookup, encoding);
    expect(decode(first)).toEqual(html);
    expect(decode(again)).toEqual(html);
    expect(again.length).toBeLessThan(first.length);
    expect(shell.fill(lookup, encoding)).toBe(again);
  });

  it('keeps a page apart per encoding: a reload in one is not answered with the other', () => {
    const shell = shells.get('/')!;
    const lookup = lookupOf('81.2.69.168');
    const answers = (['gzip', 'zstd', 'gzip', 'zstd', 'gzip', 'zstd'] as const).map((encoding) => shell.fill(lookup, encoding));
    answers.forEach((body, i) => expect((i % 2 ? zstdDecompressSync : gunzipSync)(body)).toEqual(shell.fill(lookup)));
    expect(answers[4]).toBe(answers[2]);
    expect(answers[5]).toBe(answers[3]);
  });

  it.each(ENCODINGS.flatMap(([encoding, decode]) => ['81.2.69.165', '2a02:8388:1:2::1', '10.0.0.1'].map((ip) => [encoding, ip, decode] as const)))(
    'a first visit to / in %s from %s is at most 10 KB', (encoding, ip, decode) => {
      // With its headers the page then arrives in a new connection's first flight (10 segments).
      const body = shells.get('/')!.fill(lookupOf(ip), encoding);
      expect(body.length).toBeLessThanOrEqual(10_000);
      expect(decode(body).length).toBeGreaterThan(3 * body.length);
    });

  it('keeps each record\'s page apart, visitors taking turns', () => {
    const shell = shells.get('/')!;
    const [a, b] = [lookupOf('81.2.69.162'), lookupOf('81.2.69.163')];
    const answers = [a, b, a, b, a, b].map((lookup) => shell.fill(lookup, 'gzip'));
    answers.forEach((gzip, i) => expect(gunzipSync(gzip)).toEqual(shell.fill(i % 2 ? b : a)));
    expect(answers[4]).toBe(answers[2]);
    expect(answers[5]).toBe(answers[3]);
  });

  it('never answers a record with the page of another whose JSON has the same CRC-32', () => {
    // The pages are noted and kept by the CRC-32 of the record: find two records that share
    // one (a birthday search over hash-made city names, about 80,000 tries: names that differ
    // only in their last characters never share a CRC), then ask for each in turn.
    const shell = shells.get('/')!;
    const base = lookupOf('81.2.69.164');
    const withCity = (city: string): LookupResponse => ({ ...base, data: { ...base.data, city } });
    const seen = new Map<number, string>();
    let twins: [string, string] | undefined;
    for (let i = 0; !twins; i++) {
      const city = `Town ${createHash('sha1').update(String(i)).digest('base64url').slice(0, 12)}`;
      const crc = crc32(pageRecordJson(withCity(city)));
      const other = seen.get(crc);
      if (other !== undefined) twins = [other, city];
      else seen.set(crc, city);
    }
    const [a, b] = twins.map(withCity) as [LookupResponse, LookupResponse];
    for (const lookup of [a, b, a, b, a]) expect(gunzipSync(shell.fill(lookup, 'gzip'))).toEqual(shell.fill(lookup));
  });
});

describe('a page the shell cannot reproduce is refused', () => {
  it('a placeholder whose address a text of the page also names', async () => {
    // `/` says "e.g. /lookup/8.8.8.8": cut there, the example would name every visitor's address.
    expect((await renderCaptured(render, '/', locals(lookupOf('8.8.8.8')))).html).toContain('/lookup/8.8.8.8');
    const warnings: string[] = [];
    const warn = console.warn;
    console.warn = (message: string) => warnings.push(message);
    try {
      const shellFor = await loadShells(render, 'dist', (ip) => locals(lookupOf(ip)), SHELL_PAGES, ['8.8.8.8', PLACEHOLDERS[1]]);
      expect(shellFor('/')).toBeUndefined();
      expect(shellFor('/lookup/1.2.3.4')).toBeUndefined();
      expect(shellFor('/ip-2')).toBeDefined();
    } finally {
      console.warn = warn;
    }
    expect(warnings.join('\n')).toMatch(/^\/ renders through Astro per request: its shell was refused: filled for 2001:db8::7e57, it differs/m);
    // Where: the first of the example's addresses, which the shell filled with the check's; and the text around it.
    const astro = withoutUids((await renderCaptured(render, '/', locals(lookupOf(PLACEHOLDERS[1])))).html);
    const at = astro.indexOf('8.8.8.8');
    const [, where, excerpt] = /^\/ renders .* differs from Astro's page at (\d+): (".*")$/m.exec(warnings.join('\n'))!;
    expect(Number(where)).toBe(at);
    expect(JSON.parse(excerpt!)).toBe((astro.slice(at - 60, at) + '2001:db8::7e57' + astro.slice(at + '8.8.8.8'.length)).slice(0, 120));
  }, 30_000);

  it('serves each page from its own shell, an address\'s page by its prefix', async () => {
    const warnings: string[] = [];
    const warn = console.warn;
    console.warn = (message: string) => warnings.push(message);
    let shellFor: Awaited<ReturnType<typeof loadShells>>;
    try {
      shellFor = await loadShells(render, 'dist', (ip) => locals(lookupOf(ip)), SHELL_PAGES);
    } finally {
      console.warn = warn;
    }
    expect(warnings).toEqual([]);
    const [home, ip2, lookupPage] = ['/', '/ip-2', '/lookup/9.9.9.9'].map((page) => shellFor(page));
    expect(new Set([home, ip2, lookupPage]).size).toBe(3);
    expect(shellFor('/lookup/1.1.1.1')).toBe(lookupPage);
    expect(shellFor('/other')).toBeUndefined();
    const lookup = lookupOf('9.9.9.9');
    expect(withoutUids(lookupPage!.fill(lookup).toString('utf8'))).toBe(await astroPage('/lookup/', lookup));
    expect(withoutUids(ip2!.fill(lookup).toString('utf8'))).toBe(await astroPage('/ip-2', lookup));
  }, 30_000);

  it.each<[string, string, (ip: string) => App.Locals]>([
    ['no island bundle', 'empty', (ip) => locals(lookupOf(ip))],
    ['no record for the placeholder cut', 'dist', (ip) => ip === PLACEHOLDERS[0] ? withoutLookup(locals(lookupOf(ip))) : locals(lookupOf(ip))],
    ['no record for the placeholder checked', 'dist', (ip) => ip === PLACEHOLDERS[1] ? withoutLookup(locals(lookupOf(ip))) : locals(lookupOf(ip))],
  ])('with %s, every page renders through Astro, said once', async (_, dist, pageLocals) => {
    const distDir = dist === 'dist' ? 'dist' : mkdtempSync(path.join(tmpdir(), 'page-shell-dist-'));
    const warnings: string[] = [];
    const warn = console.warn;
    console.warn = (message: string) => warnings.push(message);
    try {
      const shellFor = await loadShells(render, distDir, pageLocals, SHELL_PAGES);
      expect(PAGES.map((page) => shellFor(page))).toEqual([undefined, undefined, undefined]);
    } finally {
      console.warn = warn;
      if (distDir !== 'dist') rmSync(distDir, { recursive: true, force: true });
    }
    expect(warnings).toEqual(['pages render through Astro per request: the build has no dist/server/visitor-islands.mjs (npm run build makes it)']);
  });

  it('a fault that is not a page the shell cannot reproduce stops the start', async () => {
    const distDir = mkdtempSync(path.join(tmpdir(), 'page-shell-dist-'));
    try {
      mkdirSync(path.join(distDir, 'server'));
      const real = pathToFileURL(path.resolve('dist/server/visitor-islands.mjs')).href;
      writeFileSync(path.join(distDir, 'server', 'visitor-islands.mjs'), [
        `import * as real from ${JSON.stringify(real)};`,
        'export const { jsx, renderToString } = real;',
        "export const islands = { ...real.islands, BadgeRow: () => { throw new RangeError('a bug in an island'); } };",
      ].join('\n'));
      await expect(loadShells(render, distDir, (ip) => locals(lookupOf(ip)), SHELL_PAGES)).rejects.toThrow(new RangeError('a bug in an island'));
    } finally {
      rmSync(distDir, { recursive: true, force: true });
    }
  });

  it('an island that takes the record but has no string renderer', async () => {
    const placeholder = lookupOf('8.8.8.8');
    const page = await renderCaptured(render, '/', locals(placeholder));
    const { IpBox: _, ...others } = bundle.islands;
    expect(() => PageShell.compile(page, placeholder, { ...bundle, islands: others })).toThrow(/IpBox takes the record/);
  });

  it("a page without the record's data block, or with the record twice", async () => {
    const placeholder = lookupOf('8.8.8.8');
    const page = await renderCaptured(render, '/', locals(placeholder));
    const block = pageRecordJson(placeholder);
    expect(() => PageShell.compile({ ...page, html: page.html.replace(block, '') }, placeholder, bundle))
      .toThrow(new ShellError('the page carries no record (src/components/PageRecordData.astro)'));
    expect(() => PageShell.compile({ ...page, html: page.html.replace(block, block + block) }, placeholder, bundle)).toThrow(new ShellError('the page carries the record twice'));
  });

  it('an island the string renderer renders differently', async () => {
    const placeholder = lookupOf('8.8.8.8');
    const page = await renderCaptured(render, '/', locals(placeholder));
    const islands = { ...bundle.islands, BadgeRow: () => 'x'.repeat(500) };
    // The message shows the first 400 characters of each: what Astro rendered, and the renderer's.
    const tag = /<astro-island [^>]*BadgeRow[^>]*>/.exec(page.html)!;
    const start = tag.index + tag[0].length;
    const astro = page.html.slice(start, page.html.indexOf('<!--astro:end--></astro-island>', start));
    expect(astro.length).toBeGreaterThan(400);
    expect(() => PageShell.compile(page, placeholder, { ...bundle, islands }))
      .toThrow(new ShellError(`BadgeRow renders differently through the string renderer:\n  astro: ${astro.slice(0, 400)}\n  shell: ${'x'.repeat(400)}`));
  });

  it('an island that takes the record under another name', async () => {
    const placeholder = lookupOf('8.8.8.8');
    const page = await renderCaptured(render, '/', locals(placeholder));
    const html = page.html.replace(/(BadgeRow[^>]*props="\{&quot;)initial(&quot;)/, '$1seed$2');
    expect(html).not.toBe(page.html);
    expect(() => PageShell.compile({ ...page, html }, placeholder, bundle)).toThrow(new ShellError("BadgeRow takes the page's record under another name than initial"));
  });

  it('an island that takes the record and whose component cannot be named', async () => {
    const placeholder = lookupOf('8.8.8.8');
    const page = await renderCaptured(render, '/', locals(placeholder));
    const html = page.html.replace(/(component-url="\/_astro\/)IpBox\./, '$1Ip-Box.');
    const tag = /<astro-island [^>]*Ip-Box[^>]*>/.exec(html)![0];
    expect(() => PageShell.compile({ ...page, html }, placeholder, bundle))
      .toThrow(new ShellError(`the island ${tag.slice(0, 80)} takes the record but has no string renderer (src/server/shell/islands.ts)`));
  });

  it('a page where no island takes the record', async () => {
    const placeholder = lookupOf('8.8.8.8');
    const page = await renderCaptured(render, '/', locals(placeholder));
    const html = page.html.replaceAll('{&quot;from&quot;:[0,&quot;page&quot;]}', '{&quot;from&quot;:[0,&quot;book&quot;]}');
    expect(() => PageShell.compile({ ...page, html }, placeholder, bundle)).toThrow(new ShellError("no island takes the page's record"));
  });

  it('compares pages without their islands\' uid attributes, and nothing else left out', () => {
    expect(withoutUids('<astro-island uid="Z1a2" prefix="r1" data-uid="k"> uid="" uid=x</astro-island>')).toBe('<astro-island prefix="r1" data-uid="k"> uid=x</astro-island>');
  });

  it('a page that did not render', () => {
    expect(() => PageShell.compile({ status: 500, headers: {}, html: '', ended: true }, lookupOf('8.8.8.8'), bundle)).toThrow(new ShellError('the page answered 500'));
  });
});

/** A GET as a browser sends it, the body as it came (not decoded). */
function raw(url: string, acceptEncoding: string): Promise<{ status: number; headers: IncomingHttpHeaders; body: Buffer }> {
  return new Promise((resolve, reject) => {
    get(url, { headers: { 'user-agent': BROWSER, 'accept-encoding': acceptEncoding } }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c)).on('end', () => resolve({ status: res.statusCode!, headers: res.headers, body: Buffer.concat(chunks) }));
    }).on('error', reject);
  });
}

describe('the server answers / from the shell', () => {
  let server: TestServer;
  beforeAll(async () => { server = await startTestServer({ ANALYTICS: 'off' }); }, 60_000);
  afterAll(async () => { await server?.close(); });

  it.each(['/', '/ip-2', '/lookup/81.2.69.161'])('%s: the same page plain, gzip and zstd, with Vary and Server-Timing', async (page) => {
    const plain = await raw(server.url + page, 'identity');
    // As Safari asks (no zstd), and as Chrome and Firefox ask.
    const zipped = await raw(server.url + page, 'gzip, deflate, br');
    const zstd = await raw(server.url + page, 'gzip, deflate, br, zstd');
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(zipped.headers['content-encoding']).toBe('gzip');
    expect(zstd.headers['content-encoding']).toBe('zstd');
    for (const res of [plain, zipped, zstd]) {
      expect(res.status).toBe(200);
      expect(res.headers.vary).toBe('accept-encoding');
      expect(res.headers['content-type']).toMatch(/^text\/html/);
      expect(res.headers['content-security-policy']).toMatch(/script-src 'self' 'sha256-/);
      expect(res.headers['cache-control']).toBe('private, no-store');
      expect(res.headers['server-timing']).toMatch(/^page;dur=\d+\.\d{3};desc="Lookup and page"$/);
      expect(Number(res.headers['content-length'])).toBe(res.body.length);
    }
    expect(gunzipSync(zipped.body)).toEqual(plain.body);
    expect(zstdDecompressSync(zstd.body)).toEqual(plain.body);
    const ip = page.startsWith('/lookup/') ? page.slice('/lookup/'.length) : '127.0.0.1';
    expect(plain.body.toString('utf8')).toMatch(new RegExp(`data-testid="ip"[^>]*>${ip.replaceAll('.', '\\.')}</button>`));
  });

  it.each(['zstd', 'gzip', 'identity'])('HEAD sends the page headers, its encoding and length, and no body (%s)', async (encoding) => {
    const port = Number(new URL(server.url).port);
    const head = await rawHead(port, '/', { 'accept-encoding': encoding });
    expect(head.status).toBe(200);
    expect(head.headers.get('content-encoding')).toBe(encoding === 'identity' ? undefined : encoding);
    expect(Number(head.headers.get('content-length'))).toBeGreaterThan(1000);
    expect(head.body.toString('latin1')).toBe('');
    expect(head.nextStatus).toBe(200);
  });
});
