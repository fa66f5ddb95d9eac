/**
 * Island (exported through WebrtcCheck.tsx, whose chunk it shares): the leak checks of
 * `/`'s VPN tab. Its own code is these few lines; the summary, the DNS leak test and their
 * texts (LeakPanel.tsx) are fetched the first time the tab is shown (a hidden panel is not
 * in view), so none of it is in what `/` loads without a click (tests/js-budget.test.ts,
 * tests/e2e/script-budget.test.ts). What they need of the page's own stores (the WebRTC
 * check, the record) is read here and handed down: imported by the lazy chunk, those stores
 * would be split out of the chunks `/` loads into chunks of their own.
 */
import { useStore } from '@nanostores/react';
import { useEffect, useRef, useState, type ComponentType } from 'react';
import type { ClientConfig } from '../lib/client-config.ts';
import { $lookup } from '../stores/lookup.ts';
import { $webrtc, webrtcReportOf } from '../stores/webrtc.ts';
import type { LeakPanelProps } from './LeakPanel.tsx';
import { useFirstVisible } from './use-lookup.ts';

export default function LeakChecks({ config }: { config: ClientConfig | null }) {
  const [Panel, setPanel] = useState<ComponentType<LeakPanelProps> | null>(null);
  const ref = useRef<HTMLDivElement>(null);
  const shown = useFirstVisible(ref);
  const webrtc = useStore($webrtc);
  const lookup = useStore($lookup);
  useEffect(() => { if (shown) void import('./LeakPanel.tsx').then((m) => setPanel(() => m.default)); }, [shown]);
  const report = webrtcReportOf(webrtc, lookup);
  const leaks = report && report !== 'unchecked' ? report.leaks.length : null;
  // The element is always there: it is what is watched for the tab being shown.
  return (
    <div ref={ref} className="leak-checks">
      {Panel && <Panel config={config} webrtc={{ status: webrtc.status, leaks }} page={lookup.data?.data ?? null} />}
    </div>
  );
}
