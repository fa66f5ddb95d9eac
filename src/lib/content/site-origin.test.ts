import { defineMdastPlugin, markdownToHtml } from 'satteri';
import { describe, expect, it } from 'vitest';
import { siteOriginPlugin, withSiteOrigin } from './site-origin.ts';

describe('withSiteOrigin', () => {
  it.each([
    ['curl https://<host>/json', 'https://whatismyip.example', 'curl https://whatismyip.example/json'],
    ['curl -6 https://<host>/', 'http://localhost:4321', 'curl -6 http://localhost:4321/'],
    ['open <host> in a browser', 'https://whatismyip.example/', 'open whatismyip.example in a browser'],
    ['no placeholder here', 'https://whatismyip.example', 'no placeholder here'],
  ])('%j on %s', (text, site, expected) => expect(withSiteOrigin(text, site)).toBe(expected));
});

describe('siteOriginPlugin', () => {
  it('rewrites code, inline code, text and link targets that hold the placeholder, and nothing else', () => {
    const set: Array<[unknown, string, string]> = [];
    const ctx = { setProperty: (node: unknown, key: string, value: string) => void set.push([node, key, value]) };
    const plugin = siteOriginPlugin('https://ip.example.org');
    const code = { value: 'curl https://<host>/\ncurl https://<host>/asn' };
    const plain = { value: 'nothing to do' };
    const link = { url: 'https://<host>/json' };
    const otherLink = { url: 'https://other.example/json' };
    plugin.code(code, ctx);
    plugin.text(plain, ctx);
    plugin.link(link, ctx);
    plugin.link(otherLink, ctx);
    expect(set).toEqual([
      [code, 'value', 'curl https://ip.example.org/\ncurl https://ip.example.org/asn'],
      [link, 'url', 'https://ip.example.org/json'],
    ]);
  });
});

describe('siteOriginPlugin in the Markdown processor', () => {
  it('puts the origin in links and code; other links stay as written', () => {
    const md = 'Run `curl https://<host>/json` or open [the API](https://<host>/json), not [this](https://other.example/?a=1&b=2).\n';
    expect(markdownToHtml(md, { mdastPlugins: [siteOriginPlugin('https://ip.example.org')] }).html).toBe(
      '<p>Run <code>curl https://ip.example.org/json</code> or open <a href="https://ip.example.org/json">the API</a>, '
      + 'not <a href="https://other.example/?a=1&amp;b=2">this</a>.</p>\n');
  });

  it('is a plugin definition the processor accepts (it must carry a name)', () => {
    expect(() => defineMdastPlugin(siteOriginPlugin('https://ip.example.org'))).not.toThrow();
  });
});
