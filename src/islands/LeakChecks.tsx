/**
 * Island (exported through WebrtcCheck.tsx, whose chunk it shares): the leak checks of
 * `/`'s VPN tab. Its own code is these few lines; the summary and its texts (LeakPanel.tsx)
 * are imported the first time the tab is shown (a hidden panel is not in view), from the chunk
 * of `/`'s islands below the fold (astro.config.mjs), so none of it is in `/`'s first view
 * (tests/js-budget.test.ts, tests/e2e/script-budget.test.ts). What they need of the page's
 * own stores (the WebRTC check, the record) is read here and handed down: imported by the lazy
 * chunk, those stores would be split out of the chunks `/` loads into chunks of their own.
 * The DNS leak test's card comes only where the site has a zone for it (without one the panel
 * does not show it), fetched beside the panel rather than after it.
 */
import { useStore } from '@nanostores/react';
import { useEffect, useRef, useState, type ComponentType } from 'react';
import type { ClientConfig } from '../lib/client-config.ts';
import { $lookup } from '../stores/lookup.ts';
import { $webrtc, webrtcReportOf } from '../stores/webrtc.ts';
import type { DnsLeakCardComponent, LeakPanelProps } from './LeakPanel.tsx';
import { useFirstVisible } from './use-lookup.ts';

export default function LeakChecks({ config }: { config: ClientConfig | null }) {
  const [parts, setParts] = useState<{ Panel: ComponentType<LeakPanelProps>; dnsLeakCard: DnsLeakCardComponent | null } | null>(null);
  const ref = useRef<HTMLDivElement>(null);
  const shown = useFirstVisible(ref);
  const webrtc = useStore($webrtc);
  const lookup = useStore($lookup);
  const zone = config?.dnsLeakZone;
  useEffect(() => {
    if (!shown) return;
    void Promise.all([import('./LeakPanel.tsx'), zone ? import('./DnsLeakCard.tsx') : null])
      .then(([panel, card]) => setParts({ Panel: panel.default, dnsLeakCard: card?.default ?? null }));
  }, [shown, zone]);
  const report = webrtcReportOf(webrtc, lookup);
  const leaks = report && report !== 'unchecked' ? report.leaks.length : null;
  // The element is always there: it is what is watched for the tab being shown.
  return (
    <div ref={ref} className="leak-checks">
      {parts && <parts.Panel config={config} dnsLeakCard={parts.dnsLeakCard} webrtc={{ status: webrtc.status, leaks }} page={lookup.data?.data ?? null} />}
    </div>
  );
}
