import { describe, expect, it } from 'vitest';
import { currentIn } from './nav-current.ts';

const NAV = ['/', '/ip-2', '/ip-3', '/tools', '/guides', '/blog', '/ip-4'];

describe('currentIn', () => {
  it.each<[string, Record<string, string>]>([
    ['/', { '/': 'page' }],
    ['/ip-2', { '/ip-2': 'page' }],
    ['/blog', { '/blog': 'page' }],
    ['/blog/webrtc-leaks-explained', { '/blog': 'true' }],
    ['/tool/bulk-ip-lookup', { '/tools': 'true' }],
    ['/guide/how-to-find-ip-address', { '/guides': 'true' }],
    ['/lookup/8.8.8.8', { '/ip-3': 'true' }],
    ['/ip-2x', {}],
    ['/trust', {}],
  ])('marks %s', (path, marks) => expect(Object.fromEntries(currentIn(NAV, path))).toEqual(marks));
});
