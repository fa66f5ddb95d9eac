import { describe, expect, it } from 'vitest';
import type { LookupResponse, WebrtcAddress } from '../lib/record.ts';
import type { LookupState } from './lookup.ts';
import { webrtcReportOf, type WebrtcStatus } from './webrtc.ts';

const row = (ip: string, kind: WebrtcAddress['kind']): WebrtcAddress => ({ ip, ip_version: ip.includes(':') ? 'ipv6' : 'ipv4', kind });
const lookup = (webrtc?: WebrtcAddress[]): LookupState =>
  ({ status: 'loaded', error: null, data: { webrtc } as unknown as LookupResponse });
const check = (status: WebrtcStatus) => ({ status, candidates: [] });

describe('webrtcReportOf', () => {
  it.each<[string, WebrtcStatus, LookupState, ReturnType<typeof webrtcReportOf>]>([
    ['nothing while the probe runs, even with an older classification', 'running', lookup([row('1.1.1.1', 'leak')]), null],
    ['nothing when the check is off', 'off', lookup([]), null],
    ['unchecked when the server could not classify (no webrtc in the record)', 'done', lookup(undefined), 'unchecked'],
    ['no leak and no own address for an empty classification', 'done', lookup([]), { leaks: [], otherFamily: [], sameNetwork: [] }],
    ['the three kinds, each in its group, in order', 'done',
      lookup([row('73.1.2.3', 'other-family'), row('1.1.1.1', 'leak'), row('2601:1c0::2', 'same-network'), row('9.9.9.9', 'leak')]),
      { leaks: ['1.1.1.1', '9.9.9.9'], otherFamily: [row('73.1.2.3', 'other-family')], sameNetwork: ['2601:1c0::2'] }],
  ])('%s', (_, status, state, expected) => {
    expect(webrtcReportOf(check(status), state)).toEqual(expected);
  });
});
