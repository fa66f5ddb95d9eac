/**
 * Command examples in articles and guides name the site's real origin: authors write
 * `curl https://<host>/json` and the build puts the origin of SITE_URL there (a Markdown
 * plugin for Astro's Sätteri processor, registered in astro.config.mjs; tool pages call
 * withSiteOrigin on their steps), so readers copy a command that works instead of a
 * placeholder to fill in. site-origin.test.ts shows the rewriting.
 */

/** `https://<host>` becomes the site's origin (scheme included), a bare `<host>` its host. */
export function withSiteOrigin(text: string, site: string): string {
  const url = new URL(site);
  return text.replaceAll('https://<host>', url.origin).replaceAll('<host>', url.host);
}

interface Literal { value: string }
interface Link { url: string }
interface Ctx { setProperty(node: unknown, key: string, value: string): void }

/** The mdast plugin: rewrites text, inline code, code blocks and link targets. */
export function siteOriginPlugin(site: string) {
  const value = (node: Literal, ctx: Ctx) => {
    if (node.value.includes('<host>')) ctx.setProperty(node, 'value', withSiteOrigin(node.value, site));
  };
  return {
    name: 'site-origin',
    text: value,
    inlineCode: value,
    code: value,
    link: (node: Link, ctx: Ctx) => {
      if (node.url.includes('<host>')) ctx.setProperty(node, 'url', withSiteOrigin(node.url, site));
    },
  };
}
