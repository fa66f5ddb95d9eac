/**
 * The VPN tab's leak checks: the summary, then the DNS leak test's card where the site has
 * a zone for it; starts the IPv4/IPv6 check the summary reports. Imported by LeakChecks.tsx
 * when the tab is first shown, so none of it runs in `/`'s first view; the card's own code is
 * fetched only where there is a zone.
 */
import { useEffect, type ComponentType } from 'react';
import type { ClientConfig } from '../lib/client-config.ts';
import { ensureClientConfig } from '../stores/client-config.ts';
import { startFamilyLeakCheck, type PageAddress } from '../stores/family-leak.ts';
import LeakSummary, { type WebrtcSummary } from './LeakSummary.tsx';

/** The DNS leak test's card (DnsLeakCard.tsx), handed in by whoever loaded it. */
export type DnsLeakCardComponent = ComponentType<{ zone: string }>;

export interface LeakPanelProps {
  config: ClientConfig | null;
  /** Loaded only when `config` names a zone; null without one. */
  dnsLeakCard: DnsLeakCardComponent | null;
  webrtc: WebrtcSummary;
  /** The address the page came from, with its network; null until the record is known. */
  page: PageAddress | null;
}

export default function LeakPanel({ config, dnsLeakCard: DnsLeakCard, webrtc, page }: LeakPanelProps) {
  // The page's settings first, so the IPv4/IPv6 check does not ask /api/config for them again.
  useEffect(() => {
    if (page) void ensureClientConfig(config ?? undefined).then(() => startFamilyLeakCheck(page));
  }, [config, page]);
  const zone = config?.dnsLeakZone ?? null;
  return (
    <>
      <div className="card"><LeakSummary zone={zone} webrtc={webrtc} /></div>
      {zone && DnsLeakCard && <div className="card"><DnsLeakCard zone={zone} /></div>}
    </>
  );
}
