/** Export Data: downloads the current record as the export record (src/lib/export-record.ts). */
import { buildExportRecord, exportFileName } from '../lib/export-record.ts';
import { $lookup } from './lookup.ts';

interface NetworkInformation { effectiveType?: string; downlink?: number; rtt?: number }

/** Saves `ip-info-<time>.json`; does nothing before a record exists. */
export function downloadExport(): void {
  const current = $lookup.get().data;
  if (!current) return;
  const now = new Date();
  const record = buildExportRecord(current.data, current.device, {
    now,
    userAgent: navigator.userAgent,
    timezone: Intl.DateTimeFormat().resolvedOptions().timeZone,
    language: navigator.language,
    screen: { width: screen.width, height: screen.height, colorDepth: screen.colorDepth },
    connection: (navigator as Navigator & { connection?: NetworkInformation }).connection ?? null,
  });
  const url = URL.createObjectURL(new Blob([JSON.stringify(record, null, 2)], { type: 'application/json' }));
  const link = Object.assign(document.createElement('a'), { href: url, download: exportFileName(now) });
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}
