/**
 * E2E harness: starts the built server on a free port (127.0.0.1 only) and a system
 * Chromium through playwright-core. No downloads: CHROMIUM_PATH or a Debian chromium.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { chromium, type Browser, type Download, type LaunchOptions, type Page } from 'playwright-core';
import { LookupResponseSchema, type LookupResponse } from '../../src/lib/record.ts';
import { OFFLINE_ENV } from './offline-env.ts';

export interface RunningServer {
  url: string;
  port: number;
  process: ChildProcess;
  output: () => string;
  stop: () => Promise<number | null>;
}

/** A 1x1 transparent PNG: map tiles in tests, so Leaflet asks no tile server. */
const BLANK_TILE = 'data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=';

/**
 * Settings that keep every browser test on this machine and out of each other's way, beside
 * OFFLINE_ENV (offline-env.ts, beside this file), which every harness's servers get: blank tiles
 * instead of a tile server, the STUN responder off (servers started in parallel would all
 * want udp 3478) and a STUN address on loopback where nobody answers. Tests of the WebRTC
 * check set STUN_PORT to a free port (stun-relay.ts, beside this file) and clear PUBLIC_STUN_URL.
 */
export const OFFLINE_CLIENT_ENV = { PUBLIC_TILE_URL: BLANK_TILE, STUN_PORT: '0', PUBLIC_STUN_URL: 'stun:127.0.0.1:9' };

/**
 * Starts `src/server/main.ts` from the build with extra environment; resolves once it
 * listens. Unless told otherwise, its analytics go to SQLite in a fresh DATA_DIR, removed
 * when it stops.
 */
export function startServer(env: Record<string, string> = {}): Promise<RunningServer> {
  const dataDir = env.DATA_DIR ? undefined : mkdtempSync(path.join(tmpdir(), 'whatismyip-e2e-'));
  const removeData = () => { if (dataDir) rmSync(dataDir, { recursive: true, force: true }); };
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['src/server/main.ts'], {
      env: { ...process.env, ...OFFLINE_ENV, DATABASE_URL: '', ...(dataDir ? { DATA_DIR: dataDir } : {}), ...OFFLINE_CLIENT_ENV, ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    const timer = setTimeout(() => { child.kill('SIGKILL'); reject(new Error(`server did not start:\n${output}`)); }, 30_000);
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      const match = /listening on http:\/\/127\.0\.0\.1:(\d+)/.exec(output);
      if (match) {
        clearTimeout(timer);
        const port = Number(match[1]);
        resolve({
          url: `http://127.0.0.1:${port}`,
          port,
          process: child,
          output: () => output,
          stop: () => new Promise((done) => {
            if (child.exitCode !== null) { removeData(); return done(child.exitCode); }
            child.once('exit', (code) => { removeData(); done(code); });
            child.kill('SIGTERM');
          }),
        });
      }
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', onData);
    child.once('exit', (code) => { clearTimeout(timer); removeData(); reject(new Error(`server exited with ${code}:\n${output}`)); });
  });
}

const CANDIDATES = ['/usr/bin/chromium', '/usr/bin/chromium-browser', '/usr/bin/google-chrome'];

/** The system Chromium: CHROMIUM_PATH, else the first known install path that exists. */
export function chromiumPath(): string {
  const path = process.env.CHROMIUM_PATH || CANDIDATES.find((p) => existsSync(p));
  if (!path) throw new Error('No Chromium found: install Debian\'s chromium or set CHROMIUM_PATH');
  return path;
}

/** How the browser tests start Chromium: headless, with the flags this closed network needs. */
export const browserLaunchOptions = (): LaunchOptions => ({
  executablePath: chromiumPath(),
  args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
    '--disable-background-networking', '--disable-component-update', '--disable-sync',
    // WebRTC host candidates as addresses, not mDNS names: no multicast announcements on the LAN.
    '--disable-features=WebRtcHideLocalIpsWithMdns'],
});

/** Where a worker finds the run's Chromium (e2e-fixture.ts sets it): in the environment it inherits. */
export const BROWSER_ENDPOINT = 'E2E_SHARED_BROWSER_WS';

/**
 * The run's Chromium (started once by e2e-fixture.ts, beside this file) when there is one, else
 * a Chromium of its own. Either way `close()` closes what this caller opened.
 */
export function launchBrowser(): Promise<Browser> {
  const shared = process.env[BROWSER_ENDPOINT];
  return shared ? chromium.connect(shared) : chromium.launch(browserLaunchOptions());
}

/**
 * Waits until every island that is due has hydrated (Astro drops the `ssr` attribute then):
 * a click on a tab or button before that is lost, which a loaded machine makes likely. An
 * island with `client:visible` is due once one of its elements is in view (Astro watches its
 * children: the island itself is `display: contents`); one below the fold or in a closed tab
 * is not, so call this again after scrolling to it or opening its tab.
 */
export function hydrated(page: Page): Promise<unknown> {
  return page.waitForFunction(() => [...document.querySelectorAll('astro-island[ssr]')].every((island) => {
    if (island.getAttribute('client') !== 'visible') return false;
    return ![...island.children].some((child) => {
      const box = child.getBoundingClientRect();
      return child.checkVisibility() && box.bottom > 0 && box.right > 0 && box.top < innerHeight && box.left < innerWidth;
    });
  }));
}

/**
 * What a download holds, as text. Read as a stream: a browser the test connected to (the run's
 * shared one) keeps its downloads on its own side, where `download.path()` cannot reach.
 */
export async function downloadText(download: Download): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of await download.createReadStream()) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

/** Every URL the sitemap lists, rewritten onto the test server's origin. */
export async function sitemapPaths(base: string): Promise<string[]> {
  const index = await (await fetch(`${base}/sitemap-index.xml`)).text();
  const paths: string[] = [];
  for (const [, loc] of index.matchAll(/<loc>([^<]+)<\/loc>/g)) {
    const sitemap = await (await fetch(`${base}${new URL(loc!).pathname}`)).text();
    for (const [, page] of sitemap.matchAll(/<loc>([^<]+)<\/loc>/g)) paths.push(new URL(page!).pathname);
  }
  return paths;
}

/** A public address the databases know; the test server believes it from its trusted loopback proxy (TRUST_PROXY=loopback). */
export const VISITOR = '8.8.8.8';
export const AS_VISITOR = { 'x-forwarded-for': VISITOR };

/**
 * The visitor's record as the server sees it, and its timezone when the databases name
 * one: a browser in that zone keeps the VPN verdict steady (the page posts its timezone
 * after the WebRTC check, and a mismatch would rightly change verdict and accuracy).
 */
export async function visitorRecord(url: string): Promise<{ expected: LookupResponse; timezoneId: string | undefined }> {
  const res = await fetch(`${url}/api/lookup`, { headers: AS_VISITOR });
  const expected = LookupResponseSchema.parse(await res.json());
  return { expected, timezoneId: expected.data.timezone.includes('/') ? expected.data.timezone : undefined };
}

/**
 * Network pages (/AS{n}), one per way the template shows a network: the largest (the most
 * addresses and long lists), the longest name, the most IPv6 prefixes, one without IPv4 (placed
 * by /48s), and the 404 and 400 pages. The browser tests check these rather than the 3,000
 * the networks' sitemap lists, which all share the template.
 */
export const NETWORK_PAGES = ['/AS16509', '/AS329180', '/AS200142', '/AS23910', '/AS4294967295', '/ASxyz'];
/** A path in the networks' sitemap. */
export const isNetworkPage = (path: string): boolean => /^\/AS\d+$/.test(path);

const BUILT_PAGES = 'dist/client';

/** Paths the build's sitemap lists, read from dist at collection time so each page can be its own test. */
export function builtSitemapPaths(): string[] {
  return readdirSync(BUILT_PAGES).filter((f) => /^sitemap-\d+\.xml$/.test(f))
    .flatMap((f) => [...readFileSync(`${BUILT_PAGES}/${f}`, 'utf8').matchAll(/<loc>([^<]+)<\/loc>/g)].map(([, loc]) => new URL(loc!).pathname));
}

/**
 * The built sitemap by page type, for the axe scans (a11y.test.ts, dark.test.ts), which take
 * seconds a page: every page a template renders once (`/`, `/trust`, `/ip-2`), and of those one
 * template renders per entry of a collection (`/blog/<slug>`, `/tool/<keyword>`, `/isp/<isp>`),
 * the largest and the smallest built page, the one with the most kinds of markup and the
 * one with the fewest. The width check (layout-and-no-js.test.ts) and the crawl still read
 * every page.
 */
export function builtPageTypes(): string[] {
  const templates = new Map<string, string[]>();
  for (const path of builtSitemapPaths()) {
    // `/blog/` for the posts, apart from `/blog`, the index page.
    const template = path.lastIndexOf('/') > 0 ? path.slice(0, path.lastIndexOf('/') + 1) : path;
    templates.set(template, [...(templates.get(template) ?? []), path]);
  }
  const size = (path: string) => statSync(`${BUILT_PAGES}${path}.html`).size;
  return [...templates.values()].flatMap((pages) => {
    if (pages.length === 1) return pages;
    const bySize = pages.toSorted((a, b) => size(b) - size(a));
    return [bySize[0]!, bySize.at(-1)!];
  });
}
