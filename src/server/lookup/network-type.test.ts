import { describe, expect, it } from 'vitest';
import { OrgTraits, networkTypeOfOrg, networkTypeWithReason } from './network-type.ts';

describe('network type', () => {
  const orgs = ['Amazon.com, Inc.', 'Google LLC', 'Comcast Cable Communications, LLC', 'T-Mobile USA, Inc.', 'Acme Hosting Ltd',
    'NordVPN S.A.', 'Example Wireless Co', 'State University', 'Rural Broadband Coop', 'Andrews & Arnold Ltd', 'Best VPS Ever',
    'iCloud Private Relay'];
  const traits = new OrgTraits(orgs);
  const id = (org: string) => orgs.indexOf(org);

  it.each([
    ['AWS by ASN', 16509, 'Amazon.com, Inc.', 'datacenter'],
    ['Google Cloud by ASN', 396982, 'Google LLC', 'datacenter'],
    ["Google's own network as business", 15169, 'Google LLC', 'business'],
    ['T-Mobile as mobile', 21928, 'T-Mobile USA, Inc.', 'mobile'],
    ['Comcast as residential', 7922, 'Comcast Cable Communications, LLC', 'residential'],
    ['an unlisted hosting company by keyword', 64500, 'Acme Hosting Ltd', 'datacenter'],
    ['a VPS seller by keyword', 64500, 'Best VPS Ever', 'datacenter'],
    ['a VPN brand by what else its name says, not by the brand', 64501, 'NordVPN S.A.', 'other'],
    ['an unlisted wireless carrier by keyword', 64502, 'Example Wireless Co', 'mobile'],
    ['a university as business', 64503, 'State University', 'business'],
    ['an unlisted broadband ISP as residential', 64504, 'Rural Broadband Coop', 'residential'],
    ['anything else as other', 20712, 'Andrews & Arnold Ltd', 'other'],
  ])('classifies %s', (_, asn, org, type) => expect(traits.networkType(asn, id(org))).toBe(type));

  it.each([
    ['Acme Hosting Ltd', true, false],
    ['NordVPN S.A.', false, true],
    ['Comcast Cable Communications, LLC', false, false],
    // 'VPS' is our own keyword for the type, not one of the spec's VPN-score words.
    ['Best VPS Ever', false, false],
  ])("reads %j's name: datacenter keyword %s, VPN brand %s", (org, datacenter, brand) => {
    expect(traits.datacenterWord(id(org))).toBe(datacenter);
    expect(traits.vpnBrand(id(org))).toBe(brand);
  });

  it.each([
    ['AWS', 16509, 'Amazon.com, Inc.', 'asn'],
    ['an unlisted company with a hosting word in its name', 64500, 'Acme Hosting Ltd', 'name'],
    ['a VPS seller, by the type its name gives', 64500, 'Best VPS Ever', 'name'],
    ['an ASN listed as business whose name holds a hosting word', 714, 'iCloud Private Relay', 'name'],
    ['an ASN listed as business whose name holds none', 15169, 'Google LLC', null],
    ['a residential ISP', 7922, 'Comcast Cable Communications, LLC', null],
    ['a VPN brand by its brand alone', 64501, 'NordVPN S.A.', null],
  ])('tells how %s (AS%i) is known as a hosting network', (_, asn, org, by) => expect(traits.hostingBy(asn, id(org))).toBe(by));

  it.each<[string, number, string, ReturnType<typeof networkTypeWithReason>]>([
    ['AWS, on the curated list', 16509, 'Amazon.com, Inc.', { type: 'datacenter', by: 'asn', word: '' }],
    ['a listed ASN whatever its name says', 15169, 'Example Hosting', { type: 'business', by: 'asn', word: '' }],
    ['an unlisted host by the first hosting word of its name', 64500, 'Acme Hosting Ltd', { type: 'datacenter', by: 'name', word: 'hosting' }],
    ['a VPS seller by our own keyword', 64500, 'Best VPS Ever', { type: 'datacenter', by: 'name', word: 'vps' }],
    ['a carrier by a mobile word', 64502, 'Example Wireless Co', { type: 'mobile', by: 'name', word: 'wireless' }],
    ['a university by a business word', 64503, 'State University', { type: 'business', by: 'name', word: 'university' }],
    ['a broadband ISP by a residential word', 64504, 'Rural Broadband Coop', { type: 'residential', by: 'name', word: 'broadband' }],
    ['a name with words of two types by the first list', 64505, 'Mobile Hosting', { type: 'datacenter', by: 'name', word: 'hosting' }],
    ['anything else as other, with no reason', 20712, 'Andrews & Arnold Ltd', { type: 'other', by: null, word: '' }],
  ])('says why %s has its type', (_, asn, org, expected) => {
    expect(networkTypeWithReason(asn, org)).toEqual(expected);
    expect(networkTypeWithReason(asn, org).type).toBe(new OrgTraits([org]).networkType(asn, 0));
  });

  it('gives the same answer before and after an organisation is first seen', () => {
    expect(traits.networkType(64500, id('Acme Hosting Ltd'))).toBe(networkTypeOfOrg('Acme Hosting Ltd'));
  });
});
