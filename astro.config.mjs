// Astro configuration: every page prerendered (`/` as a shell the server fills per request,
// src/server/pages.ts). The node adapter stays for `staticHeaders`: it writes each page's
// Content-Security-Policy (script and style hashes) to dist/_headers.json, which our own
// server (src/server/main.ts) sends with the page.
import { defineConfig } from 'astro/config';
import mdx from '@astrojs/mdx';
import react from '@astrojs/react';
import sitemap from '@astrojs/sitemap';
import node from '@astrojs/node';

const SITE = process.env.SITE_URL || 'http://localhost:4321';

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
      // Every page is prerendered (`/` as its shell); the 404 pages are left out.
      filter: (page) => !NOT_INDEXED.some((p) => new URL(page).pathname === p),
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
  markdown: { syntaxHighlight: 'prism' },
  devToolbar: { enabled: false },
});
