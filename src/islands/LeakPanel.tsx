/**
 * The VPN tab's leak checks: the summary, then the DNS leak test's card where the site has
 * a zone for it; starts the IPv4/IPv6 check the summary reports. Loaded by LeakChecks.tsx
 * only once the page is idle, so none of it is in what `/` loads first.
 */
import { useEffect } from 'react';
import type { ClientConfig } from '../lib/client-config.ts';
import { ensureClientConfig } from '../stores/client-config.ts';
import { startFamilyLeakCheck, type PageAddress } from '../stores/family-leak.ts';
import DnsLeakCard from './DnsLeakCard.tsx';
import LeakSummary, { type WebrtcSummary } from './LeakSummary.tsx';

export interface LeakPanelProps {
  config: ClientConfig | null;
  webrtc: WebrtcSummary;
  /** The address the page came from, with its network; null until the record is known. */
  page: PageAddress | null;
}

export default function LeakPanel({ config, webrtc, page }: LeakPanelProps) {
  // The page's settings first, so the IPv4/IPv6 check does not ask /api/config for them again.
  useEffect(() => {
    if (page) void ensureClientConfig(config ?? undefined).then(() => startFamilyLeakCheck(page));
  }, [config, page]);
  const zone = config?.dnsLeakZone ?? null;
  return (
    <>
      <div className="card"><LeakSummary zone={zone} webrtc={webrtc} /></div>
      {zone && <div className="card"><DnsLeakCard zone={zone} /></div>}
    </>
  );
}
