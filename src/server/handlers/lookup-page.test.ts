import { describe, expect, it } from 'vitest';
import type { AppRequest } from '../http/handler.ts';
import { createLookupRedirect } from './lookup-page.ts';
import { slashRedirect, type StaticSite } from '../http/static-site.ts';
import { routeTable } from '../http/route-table.ts';

const locals = (): App.Locals => ({ clientIp: '', lookup: null, clientConfig: { tileUrl: 't', tileAttribution: 'a', stunUrl: null, stunPort: null, ipv4Url: null, ipv6Url: null, dnsLeakZone: null } });
/** The record pages as routes.ts writes their rows. */
const pages = routeTable([{ path: '/ip-2', page: { locals } }, { under: '/lookup/', page: { locals } }]);
const isLookupPage = (path: string) => path !== '/ip-2' && pages.isPage(path);

describe('an address\'s page, /lookup/{ip}', () => {
  it.each([
    ['/lookup/8.8.8.8', true],
    ['/lookup/2001:4860:4860::8888', true],
    ['/lookup/not-an-address', true],
    ['/lookup/', false],
    ['/lookup', false],
    ['/lookup/8.8.8.8/extra', false],
    ['/lookups/8.8.8.8', false],
  ])('%s: %s', (path, page) => expect(isLookupPage(path)).toBe(page));
});

describe('the /lookup?ip= redirect (the plain form on /)', () => {
  const redirect = createLookupRedirect();
  const req = (path: string, query: string, method = 'GET') => ({ method, path, query: new URLSearchParams(query) }) as unknown as AppRequest;
  it.each([
    ['ip=8.8.8.8', '/lookup/8.8.8.8'],
    ['ip=%20%202001:db8::1%20', '/lookup/2001:db8::1'],
    ['ip=', '/#lookup'],
    ['', '/#lookup'],
  ])('?%s goes to %s', (query, location) => {
    expect(redirect(req('/lookup', query))).toMatchObject({ status: 303, headers: { location } });
  });
  it('leaves other paths and methods alone', () => {
    expect(redirect(req('/lookup/8.8.8.8', ''))).toBeUndefined();
    expect(redirect(req('/lookup', 'ip=8.8.8.8', 'POST'))).toBeUndefined();
  });
});

describe('slashRedirect: trailing slashes of on-demand pages move too', () => {
  const site = { get: (path: string) => (path === '/about' ? {} : undefined) } as unknown as StaticSite;
  const isPage = pages.isPage;
  it.each([
    ['/about/', '/about'],
    ['/ip-2/', '/ip-2'],
    ['/ip-2///', '/ip-2'],
    ['/lookup/8.8.8.8/', '/lookup/8.8.8.8'],
    ['/nothing/', undefined],
    ['/ip-2', undefined],
  ])('%s → %s', (path, location) => expect(slashRedirect(site, path, '', isPage)).toBe(location));
  it('without on-demand pages, only files', () => expect(slashRedirect(site, '/ip-2/', '')).toBeUndefined());
});
