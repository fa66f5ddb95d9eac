// Astro configuration: static pages everywhere, `/` and the API rendered on demand
// by the node adapter in middleware mode, mounted by our own server (src/server/main.ts).
import { defineConfig } from 'astro/config';
import mdx from '@astrojs/mdx';
import react from '@astrojs/react';
import sitemap from '@astrojs/sitemap';
import node from '@astrojs/node';
import { satteri } from '@astrojs/markdown-satteri';
import { siteOriginPlugin } from './src/lib/content/site-origin.ts';
import { tableScrollPlugin } from './src/lib/content/rehype-table-scroll.ts';

const SITE = process.env.SITE_URL || 'http://localhost:4321';

/** The islands' shared code: stores, rules, helpers, nanostores, Vite's preload of lazy chunks. */
const SHARED_ISLAND_CODE = /[\\/]src[\\/](?:stores|lib)[\\/]|[\\/]src[\\/]islands[\\/][a-z-]+\.ts$|[\\/]node_modules[\\/](?:nanostores|@nanostores)[\\/]|vite[\\/]preload-helper/;
/** Shared rules that only the map, the analytics dashboard (both lazy) or other pages use. */
const NOT_ON_HOME = /[\\/]src[\\/]lib[\\/](?:map-center|analytics-format|ip-info-format|data-age)\.ts$/;
/** `/`'s islands below the fold and behind its tabs (they hydrate when seen), with the leak checks they lead to. */
const BELOW_THE_FOLD = /[\\/]src[\\/]islands[\\/](?:DetailCards|PrivacyFlags|VerificationCard|CitySearch|VpnPanel|AnalyticsTab|LeakPanel|LeakSummary)\.tsx$/;

/** Pages that exist for people but not for search engines. */
const NOT_INDEXED = ['/404', '/blog/404'];

export default defineConfig({
  site: SITE,
  trailingSlash: 'never',
  build: { format: 'file', inlineStylesheets: 'never' },
  output: 'static',
  adapter: node({ mode: 'middleware', staticHeaders: true }),
  session: false,
  integrations: [
    react(),
    mdx(),
    sitemap({
      // Only prerendered, indexable pages: `/` is on demand but is the product itself.
      filter: (page) => !NOT_INDEXED.some((p) => new URL(page).pathname === p),
      // On demand too, and indexable: the hub of the network pages. The networks' own pages
      // are in sitemap-networks.xml, which the build writes from the data (scripts/build-network-index.ts).
      customPages: [new URL('/networks', SITE).href],
    }),
  ],
  security: {
    checkOrigin: true,
    csp: {
      directives: [
        "default-src 'self'",
        "img-src 'self' data: https:",
        "connect-src 'self' https:",
        "font-src 'self'",
        "object-src 'none'",
        "base-uri 'self'",
        "form-action 'self'",
        "frame-ancestors 'none'",
        "worker-src 'self'",
      ],
    },
  },
  server: { host: '127.0.0.1', port: 4321 },
  markdown: {
    syntaxHighlight: 'prism',
    // Articles and guides (MDX inherits this): command examples name this site's origin, not a
    // placeholder (src/lib/content/site-origin.ts); tables scroll in their own box on a phone
    // (src/lib/content/rehype-table-scroll.ts).
    processor: satteri({ mdastPlugins: [siteOriginPlugin(SITE)], hastPlugins: [tableScrollPlugin] }),
  },
  devToolbar: { enabled: false },
  vite: {
    build: {
      rolldownOptions: {
        // Building a zod schema (`z.object(...)`, `z.number().check(...)`) has no side effects, so an
        // unused one goes. The browser imports rules and constants from modules that also define
        // schemas (src/lib/record.ts, city-search.ts, ...) and checks answers without zod
        // (src/lib/answer-guards.ts); without this, zod's code came along in the chunks `/`
        // loads, since Rolldown keeps zod's calls once zod sits in a shared chunk.
        // tests/js-budget.test.ts checks that no chunk `/` loads holds zod.
        treeshake: { manualPureFunctions: ['z'] },
        output: {
          // A few chunks for `/` rather than one per shared module: left to itself Rolldown made
          // dozens of tiny files, and gzip, which compresses each file alone, made them larger
          // than the same code in a few (docs/benchmarks.md, "The script `/` loads"; tests/e2e/script-budget.test.ts
          // counts what `/` loads). Groups are taken in order; each takes what it matches and
          // what that imports, unless an earlier group took it.
          codeSplitting: {
            groups: [
              // The islands' texts and the VPN offers (src/islands/island-text.ts): data, not
              // code, with a budget of its own (tests/js-budget.test.ts).
              { name: 'island-texts', test: /[\\/]content[\\/]site[\\/](lookup-text|offers)\.json$/ },
              // Each island's stylesheet stays its own, as without groups: taken into a group
              // below, it would come with that group's code to pages that do not show it.
              { name: (id) => /[\\/]src[\\/]islands[\\/](?:[\w-]+[\\/])*([\w-]+)\.css$/.exec(id)?.[1] ?? null },
              // React itself apart, so a page whose islands need none of the lookup code does not load it.
              { name: 'react', test: /[\\/]node_modules[\\/](?:react|scheduler)[\\/]/ },
              // The code two or more islands share: what `/`'s first view runs.
              { name: 'lookup', test: (id) => SHARED_ISLAND_CODE.test(id) && !NOT_ON_HOME.test(id), minShareCount: 2 },
              // What `/` runs when its cards are scrolled to or a tab is opened, in one chunk.
              { name: 'lookup-below', test: BELOW_THE_FOLD },
            ],
          },
        },
      },
    },
  },
});
