import { describe, expect, it } from 'vitest';
import { asnOf, networkOf } from './ip-info-format.ts';
import type { IpInfo } from './record.ts';

// Only the fields these texts read; the rest of the record does not matter here.
const info = (fields: Pick<IpInfo, 'isp' | 'org' | 'asn' | 'asn_org'>): IpInfo => fields as IpInfo;
const NONE = '(none)';

describe('networkOf', () => {
  it.each([
    [{ isp: 'Comcast', org: 'Comcast Cable', asn_org: 'COMCAST-7922' }, 'Comcast'],
    [{ isp: '', org: 'Comcast Cable', asn_org: 'COMCAST-7922' }, 'Comcast Cable'],
    [{ isp: 'Unknown', org: 'Comcast Cable', asn_org: 'COMCAST-7922' }, 'Comcast Cable'],
    [{ isp: 'Unknown', org: '', asn_org: 'COMCAST-7922' }, 'COMCAST-7922'],
    [{ isp: '', org: 'Unknown', asn_org: 'Unknown' }, NONE],
  ])('names the operator of %j as %j', (fields, text) => {
    expect(networkOf(info({ ...fields, asn: 'AS7922' }), NONE)).toBe(text);
  });
});

describe('asnOf', () => {
  it.each([
    [{ asn: 'AS15169', asn_org: 'GOOGLE' }, 'AS15169 GOOGLE'],
    [{ asn: 'AS15169', asn_org: 'Unknown' }, 'AS15169'],
    [{ asn: 'AS15169', asn_org: '' }, 'AS15169'],
    [{ asn: 'Unknown', asn_org: 'GOOGLE' }, NONE],
    [{ asn: '', asn_org: 'GOOGLE' }, NONE],
  ])('writes %j as %j', (fields, text) => {
    expect(asnOf(info({ ...fields, isp: 'Google', org: 'Google LLC' }), NONE)).toBe(text);
  });
});
