import { describe, expect, it } from 'vitest';
import { remarkSiteOrigin, withSiteOrigin } from './site-origin.ts';

describe('withSiteOrigin', () => {
  it.each([
    ['curl https://<host>/json', 'https://whatismyip.example', 'curl https://whatismyip.example/json'],
    ['curl -6 https://<host>/', 'http://localhost:4321', 'curl -6 http://localhost:4321/'],
    ['open <host> in a browser', 'https://whatismyip.example/', 'open whatismyip.example in a browser'],
    ['no placeholder here', 'https://whatismyip.example', 'no placeholder here'],
  ])('%j on %s', (text, site, expected) => expect(withSiteOrigin(text, site)).toBe(expected));
});

describe('remarkSiteOrigin', () => {
  it('rewrites code blocks, inline code and link targets, deep in the tree', () => {
    const tree = {
      type: 'root',
      children: [
        { type: 'code', value: 'curl https://<host>/\ncurl https://<host>/asn' },
        { type: 'paragraph', children: [{ type: 'inlineCode', value: 'curl -4 https://<host>/' }, { type: 'link', url: 'https://<host>/json', children: [] }] },
      ],
    };
    remarkSiteOrigin('https://ip.example.org')()(tree);
    expect(JSON.stringify(tree)).not.toContain('<host>');
    expect(tree.children[0]!.value).toBe('curl https://ip.example.org/\ncurl https://ip.example.org/asn');
  });
});
