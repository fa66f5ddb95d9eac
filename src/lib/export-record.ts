/**
 * The export record: what 'Export' downloads as JSON.
 * Pure: the browser facts are passed in, so the shape is testable without a browser.
 */
import type { DeviceInfo, IpInfo } from './record.ts';

/** Browser facts the export needs, read from navigator, screen and Intl by the caller. */
export interface BrowserFacts {
  now: Date;
  userAgent: string;
  timezone: string;
  language: string;
  screen: { width: number; height: number; colorDepth: number };
  /** Network Information API; absent in Firefox and Safari. */
  connection: { effectiveType?: string; downlink?: number; rtt?: number } | null | undefined;
}

export interface ExportRecord {
  timestamp: string;
  ipInfo: IpInfo;
  deviceInfo: DeviceInfo | null;
  userAgent: string;
  timezone: string;
  language: string;
  screen: { width: number; height: number; colorDepth: number };
  connection: { effectiveType: string | null; downlink: number | null; rtt: number | null } | null;
}

/** Builds the export record from the lookup and the browser facts. */
export function buildExportRecord(ipInfo: IpInfo, deviceInfo: DeviceInfo | null, facts: BrowserFacts): ExportRecord {
  const c = facts.connection;
  return {
    timestamp: facts.now.toISOString(),
    ipInfo,
    deviceInfo,
    userAgent: facts.userAgent,
    timezone: facts.timezone,
    language: facts.language,
    screen: { width: facts.screen.width, height: facts.screen.height, colorDepth: facts.screen.colorDepth },
    connection: c ? { effectiveType: c.effectiveType ?? null, downlink: c.downlink ?? null, rtt: c.rtt ?? null } : null,
  };
}

/** File name of the download, e.g. `ip-info-2026-11-22T05-01-02Z.json` (no colons: Windows). */
export function exportFileName(now: Date): string {
  return `ip-info-${now.toISOString().replace(/\.\d+Z$/, 'Z').replaceAll(':', '-')}.json`;
}
