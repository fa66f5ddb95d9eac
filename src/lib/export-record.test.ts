import { describe, expect, it } from 'vitest';
import { buildExportRecord, exportFileName, type BrowserFacts } from './export-record.ts';
import type { DeviceInfo, IpInfo } from './record.ts';

const ip = { ip: '8.8.8.8', city: 'Mountain View' } as IpInfo;
const device: DeviceInfo = { browser: 'Chrome', os: 'Linux', device: 'Desktop', userAgent: 'UA', bot: false };
const facts = (connection: BrowserFacts['connection']): BrowserFacts => ({
  now: new Date('2026-11-22T05:01:02.345Z'), userAgent: 'UA', timezone: 'Europe/Paris', language: 'fr-FR',
  screen: { width: 1280, height: 720, colorDepth: 24 }, connection,
});

describe('buildExportRecord', () => {
  it('carries every field of the export record', () => {
    expect(buildExportRecord(ip, device, facts({ effectiveType: '4g', downlink: 10, rtt: 50 }))).toEqual({
      timestamp: '2026-11-22T05:01:02.345Z', ipInfo: ip, deviceInfo: device, userAgent: 'UA', timezone: 'Europe/Paris',
      language: 'fr-FR', screen: { width: 1280, height: 720, colorDepth: 24 }, connection: { effectiveType: '4g', downlink: 10, rtt: 50 },
    });
  });
  it.each([[null], [undefined]])('gives connection null when the browser has no Network Information (%s)', (c) =>
    expect(buildExportRecord(ip, null, facts(c)).connection).toBeNull());
  it('fills missing connection fields with null', () =>
    expect(buildExportRecord(ip, null, facts({ effectiveType: '3g' })).connection).toEqual({ effectiveType: '3g', downlink: null, rtt: null }));
});

describe('exportFileName', () => {
  it('names the file by the time, without colons', () =>
    expect(exportFileName(new Date('2026-11-22T05:01:02.345Z'))).toBe('ip-info-2026-11-22T05-01-02Z.json'));
});
