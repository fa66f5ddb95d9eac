/**
 * The WebRTC leak check's card. Starts the check once the page has loaded and the
 * browser is idle, so it never delays first paint; shows the verdict when done: leaks
 * (addresses of another network), and apart from them the visitor's address of the other
 * IP version, which is theirs and not a leak.
 */
import { useEffect } from 'react';
import { stunUrlFor, type ClientConfig } from '../lib/client-config.ts';
import { fillTemplate } from '../lib/fill-template.ts';
import { $clientConfig, ensureClientConfig } from '../stores/client-config.ts';
import { $lookup } from '../stores/lookup.ts';
import { $webrtc, startWebrtcCheck, webrtcReportOf, type WebrtcReport } from '../stores/webrtc.ts';
import { useHydratedStore, type LookupText } from './use-lookup.ts';
import { ISLAND_TEXT } from './island-text.ts';
import './lookup.css';

interface Props {
  config?: ClientConfig | null;
  text?: LookupText['webrtc'];
}

function afterLoad(run: () => void): () => void {
  let cancelled = false;
  const idle = () => {
    if (cancelled) return;
    if ('requestIdleCallback' in window) requestIdleCallback(run, { timeout: 2000 });
    else setTimeout(run, 200);
  };
  if (document.readyState === 'complete') idle();
  else window.addEventListener('load', idle, { once: true });
  return () => { cancelled = true; window.removeEventListener('load', idle); };
}

/** The lines beside the verdict: the visitor's own other addresses. */
function ownAddressLines(report: WebrtcReport, text: LookupText['webrtc']): string[] {
  const lines = (['ipv4', 'ipv6'] as const).flatMap((version) => {
    const ips = report.otherFamily.filter((a) => a.ip_version === version).map((a) => a.ip);
    return ips.length ? [fillTemplate(text.otherFamily, { family: version === 'ipv4' ? 'IPv4' : 'IPv6', addresses: ips.join(', ') })] : [];
  });
  if (report.sameNetwork.length) lines.push(fillTemplate(text.sameNetwork, { addresses: report.sameNetwork.join(', ') }));
  return lines;
}

export default function WebrtcCheck({ config, text = ISLAND_TEXT.webrtc }: Props) {
  const check = useHydratedStore($webrtc);
  const report = webrtcReportOf(check, useHydratedStore($lookup));
  const clientConfig = useHydratedStore($clientConfig);
  useEffect(() => { void ensureClientConfig(config ?? undefined); }, [config]);
  useEffect(() => (clientConfig
    ? afterLoad(() => void startWebrtcCheck(stunUrlFor(clientConfig, location.hostname)))
    : undefined), [clientConfig]);

  const leaks = report && report !== 'unchecked' ? report.leaks : [];
  const line = check.status === 'unsupported' ? text.unsupported
    : check.status === 'off' ? text.off
    : check.status === 'running' ? text.running
    : report === 'unchecked' ? text.unchecked
    : report === null ? null
    : leaks.length ? fillTemplate(text.leak, { addresses: leaks.join(', ') })
    : text.noLeak;
  const own = report && report !== 'unchecked' ? ownAddressLines(report, text) : [];
  return (
    <section className="webrtc" aria-labelledby="webrtc-title">
      <h3 id="webrtc-title">{text.title}</h3>
      <p role="status" data-testid="webrtc-status" className={leaks.length ? 'leak' : undefined}>{line}</p>
      {own.map((ownLine) => <p key={ownLine} data-testid="webrtc-own">{ownLine}</p>)}
    </section>
  );
}

// The VPN tab's leak checks hydrate from this module's chunk: as an island of its own, its
// imports of the WebRTC and lookup stores would split them out of the chunks `/` already
// loads, adding to what it loads before the map (tests/js-budget.test.ts).
export { default as LeakChecks } from './LeakChecks.tsx';
