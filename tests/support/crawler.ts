/**
 * A small same-origin crawler for the built site: fetches pages and assets, extracts
 * every reference a browser would follow (href, src, srcset, CSS url(), JS imports)
 * and the search metadata of each HTML page.
 */

/** One fetched URL and what it referenced. */
export interface Fetched {
  path: string;
  status: number;
  type: string;
  /** Same-origin paths (with any #fragment) this resource references. */
  refs: string[];
  /** Element ids in an HTML page (targets of #fragments). */
  ids: Set<string>;
  meta?: PageMeta;
}

/** Search metadata of an HTML page. */
export interface PageMeta {
  title?: string;
  description?: string;
  canonical?: string;
  noindex: boolean;
  /** `property`/`name` → content of every <meta>. */
  tags: Map<string, string>;
  /** Raw text of every `<script type="application/ld+json">` block. */
  jsonLd: string[];
}

const decode = (s: string) => s.replace(/&amp;/g, '&').replace(/&quot;/g, '"').replace(/&#39;/g, "'").replace(/&lt;/g, '<').replace(/&gt;/g, '>');
const attr = (tag: string, name: string) => {
  const m = new RegExp(`\\s${name}=(?:"([^"]*)"|'([^']*)'|([^\\s>]+))`, 'i').exec(tag);
  return m ? decode(m[1] ?? m[2] ?? m[3] ?? '') : undefined;
};

/** Every URL an HTML document makes a browser load or offers as a link. */
function htmlRefs(html: string): string[] {
  const refs: string[] = [];
  for (const [tag] of html.matchAll(/<(?:a|link|script|img|source|iframe|video|audio|use|image)\b[^>]*>/gi)) {
    for (const name of ['href', 'src', 'xlink:href', 'poster']) {
      const v = attr(tag, name);
      if (v !== undefined) refs.push(v);
    }
    for (const name of ['srcset', 'imagesrcset']) {
      const v = attr(tag, name);
      if (v) refs.push(...v.split(',').map((part) => part.trim().split(/\s+/)[0]!).filter(Boolean));
    }
  }
  for (const [, style] of html.matchAll(/<style\b[^>]*>([\s\S]*?)<\/style>/gi)) refs.push(...cssRefs(style!));
  return refs;
}

const cssRefs = (css: string) => [...css.matchAll(/url\(\s*(?:"([^"]*)"|'([^']*)'|([^)'"\s]+))\s*\)/g)]
  .map((m) => m[1] ?? m[2] ?? m[3]!).filter((u) => !u.startsWith('data:'));
const jsRefs = (js: string) => [...js.matchAll(/(?:\bfrom\s*|\bimport\s*\(?\s*)["'](\.{0,2}\/[^"']+)["']/g)].map((m) => m[1]!);

function pageMeta(html: string): PageMeta {
  const head = /<head\b[\s\S]*?<\/head>/i.exec(html)?.[0] ?? '';
  const tags = new Map<string, string>();
  for (const [tag] of head.matchAll(/<meta\b[^>]*>/gi)) {
    const key = attr(tag, 'property') ?? attr(tag, 'name');
    const content = attr(tag, 'content');
    if (key && content !== undefined) tags.set(key, content);
  }
  const canonical = [...head.matchAll(/<link\b[^>]*>/gi)].map(([t]) => t).find((t) => attr(t, 'rel') === 'canonical');
  const title = /<title>([^<]*)<\/title>/i.exec(head)?.[1];
  return {
    title: title === undefined ? undefined : decode(title),
    description: tags.get('description'),
    canonical: canonical ? attr(canonical, 'href') : undefined,
    noindex: /noindex/.test(tags.get('robots') ?? ''),
    tags,
    jsonLd: [...html.matchAll(/<script\b[^>]*type="application\/ld\+json"[^>]*>([\s\S]*?)<\/script>/gi)].map((m) => m[1]!),
  };
}

/** Fetches one same-origin path and extracts what it references, resolved to same-origin paths. */
export async function fetchResource(origin: string, path: string): Promise<Fetched> {
  const url = new URL(path, origin);
  const res = await fetch(url, { redirect: 'manual' });
  const type = res.headers.get('content-type') ?? '';
  const body = /text|javascript|json|xml|svg/.test(type) ? await res.text() : (await res.arrayBuffer(), '');
  const raw = type.includes('text/html') ? htmlRefs(body) : type.includes('text/css') ? cssRefs(body)
    : type.includes('javascript') ? jsRefs(body) : [];
  const refs: string[] = [];
  for (const ref of raw) {
    if (/^(?:mailto|tel|javascript|data):/i.test(ref)) continue;
    const target = new URL(ref, url);
    if (target.origin === url.origin) refs.push(target.pathname + target.search + target.hash);
  }
  const ids = new Set([...body.matchAll(/\sid="([^"]+)"/g)].map((m) => m[1]!));
  return { path, status: res.status, type, refs, ids, meta: type.includes('text/html') ? pageMeta(body) : undefined };
}

/** Breadth-first crawl from the start paths over every same-origin reference; `seen` continues an earlier crawl. */
export async function crawl(origin: string, start: string[], seen = new Map<string, Fetched>()): Promise<Map<string, Fetched>> {
  const queue = [...new Set(start)];
  while (queue.length) {
    const batch = queue.splice(0, 8).filter((p) => !seen.has(p));
    const results = await Promise.all(batch.map((p) => fetchResource(origin, p)));
    for (const r of results) {
      seen.set(r.path, r);
      for (const ref of r.refs) {
        const p = ref.split('#')[0]!;
        if (!seen.has(p) && !queue.includes(p)) queue.push(p);
      }
    }
  }
  return seen;
}
