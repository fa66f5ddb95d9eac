/**
 * The VPN tab's leak checks: the summary, then the DNS leak test's card where the site has
 * a zone for it. Loaded by LeakChecks.tsx only once the page is idle, so none of it is in
 * what `/` loads first.
 */
import { useEffect } from 'react';
import type { ClientConfig } from '../lib/client-config.ts';
import { ensureClientConfig } from '../stores/client-config.ts';
import { startFamilyLeakCheck } from '../stores/family-leak.ts';
import DnsLeakCard from './DnsLeakCard.tsx';
import LeakSummary from './LeakSummary.tsx';

export default function LeakPanel({ config }: { config: ClientConfig | null }) {
  // The page's settings first, so the IPv4/IPv6 check does not ask /api/config for them again.
  useEffect(() => { void ensureClientConfig(config ?? undefined).then(startFamilyLeakCheck); }, [config]);
  const zone = config?.dnsLeakZone ?? null;
  return (
    <>
      <div className="card"><LeakSummary zone={zone} /></div>
      {zone && <div className="card"><DnsLeakCard zone={zone} /></div>}
    </>
  );
}
