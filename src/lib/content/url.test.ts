import { describe, expect, it } from 'vitest';
import { canonicalUrl, cleanPath } from './url.ts';

describe('cleanPath', () => {
  it.each([
    ['/', '/'],
    ['/index.html', '/'],
    ['/index', '/'],
    ['/trust', '/trust'],
    ['/trust.html', '/trust'],
    ['/blog/', '/blog'],
    ['/blog/post/', '/blog/post'],
    ['/blog/index.html', '/blog'],
    ['/blog/index', '/blog'],
    ['/guide/what-is.html-file', '/guide/what-is.html-file'],
    ['/guide/indexing', '/guide/indexing'],
  ])('turns %j into %j', (pathname, clean) => expect(cleanPath(pathname)).toBe(clean));
});

describe('canonicalUrl', () => {
  it('puts the clean path on the site origin', () => {
    expect(canonicalUrl('/trust.html', new URL('https://ip.example.com'))).toBe('https://ip.example.com/trust');
  });

  it('falls back to the dev server origin when no site is set', () => {
    expect(canonicalUrl('/blog/', undefined)).toBe('http://localhost:4321/blog');
  });
});
