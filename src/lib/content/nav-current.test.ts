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

describe('currentIn: sections', () => {
  const HUBS = ['/', '/cities', '/isps', '/tools'];

  it.each<[string, Record<string, string>]>([
    ['/ip-lookup/london', { '/cities': 'true' }],
    ['/isp/comcast', { '/isps': 'true' }],
    ['/tool/bulk-ip-lookup', { '/tools': 'true' }],
  ])('marks the hub of %s', (path, marks) => expect(Object.fromEntries(currentIn(HUBS, path))).toEqual(marks));

  it.each([['/guides', '/guides/ipv6'], ['/guides/ipv6', '/guides']])(
    'marks the longest link the path continues, whatever the link order (%s first)', (first, second) => {
      expect(Object.fromEntries(currentIn(['/', first, second], '/guides/ipv6/setup'))).toEqual({ '/guides/ipv6': 'true' });
    });

  it('never marks the home link as a section, even for a path that starts with //', () => {
    expect(Object.fromEntries(currentIn(NAV, '//blog'))).toEqual({});
  });
});
