/**
 * Command examples in articles and guides name the site's real origin: authors write
 * `curl https://<host>/json` and the build puts the origin of SITE_URL there (a remark
 * plugin, registered in astro.config.mjs), so readers copy a command that works instead
 * of a placeholder to fill in. site-origin.test.ts shows the rewriting.
 */

/** `https://<host>` becomes the site's origin (scheme included), a bare `<host>` its host. */
export function withSiteOrigin(text: string, site: string): string {
  const url = new URL(site);
  return text.replaceAll('https://<host>', url.origin).replaceAll('<host>', url.host);
}

interface MdNode { type: string; value?: string; url?: string; children?: MdNode[] }

/** The remark plugin: rewrites text, inline code, code blocks and link targets of a Markdown tree. */
export function remarkSiteOrigin(site: string) {
  const visit = (node: MdNode): void => {
    if (typeof node.value === 'string' && node.value.includes('<host>')) node.value = withSiteOrigin(node.value, site);
    if (typeof node.url === 'string' && node.url.includes('<host>')) node.url = withSiteOrigin(node.url, site);
    node.children?.forEach(visit);
  };
  return () => (tree: MdNode) => visit(tree);
}
