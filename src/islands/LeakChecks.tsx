/**
 * Island (exported through WebrtcCheck.tsx, whose chunk it shares): the leak checks of
 * `/`'s VPN tab, loaded late. Its own code is these few lines; the summary, the DNS leak
 * test and their texts (LeakPanel.tsx) are fetched when it hydrates, which `client:idle`
 * puts after the page has loaded, so they add nothing to what `/` loads before the map
 * (tests/js-budget.test.ts). What they need of the page's own stores (the WebRTC check,
 * the record) is read here and handed down: imported by the lazy chunk, those stores
 * would be split out of the chunks `/` loads into chunks of their own.
 */
import { useStore } from '@nanostores/react';
import { useEffect, useState, type ComponentType } from 'react';
import type { ClientConfig } from '../lib/client-config.ts';
import { $lookup } from '../stores/lookup.ts';
import { $webrtc, webrtcReportOf } from '../stores/webrtc.ts';
import type { LeakPanelProps } from './LeakPanel.tsx';

export default function LeakChecks({ config }: { config: ClientConfig | null }) {
  const [Panel, setPanel] = useState<ComponentType<LeakPanelProps> | null>(null);
  const webrtc = useStore($webrtc);
  const lookup = useStore($lookup);
  useEffect(() => { void import('./LeakPanel.tsx').then((m) => setPanel(() => m.default)); }, []);
  // An element, not null: Astro's React renderer knows a component by what it returns on the
  // server, and renders a null-returning one as not React's (an "Invalid hook call" per render).
  if (!Panel) return <></>;
  const report = webrtcReportOf(webrtc, lookup);
  const leaks = report && report !== 'unchecked' ? report.leaks.length : null;
  return <Panel config={config} webrtc={{ status: webrtc.status, leaks }} page={lookup.data?.data ?? null} />;
}
