/**
 * The WebRTC leak check's line. Starts the check once the page has loaded and the
 * browser is idle, so it never delays first paint; shows the verdict when done.
 */
import { useEffect } from 'react';
import type { ClientConfig } from '../lib/client-config.ts';
import { fillTemplate } from '../lib/fill-template.ts';
import { $clientConfig, ensureClientConfig } from '../stores/client-config.ts';
import { $lookup } from '../stores/lookup.ts';
import { $webrtc, leaksOf, startWebrtcCheck } from '../stores/webrtc.ts';
import { useHydratedStore, type LookupText } from './use-lookup.ts';
import './lookup.css';

interface Props {
  config?: ClientConfig | null;
  text: LookupText['webrtc'];
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

export default function WebrtcCheck({ config, text }: Props) {
  const check = useHydratedStore($webrtc);
  const leaks = leaksOf(check, useHydratedStore($lookup));
  const stunUrl = useHydratedStore($clientConfig)?.stunUrl;
  useEffect(() => { void ensureClientConfig(config ?? undefined); }, [config]);
  useEffect(() => (stunUrl ? afterLoad(() => void startWebrtcCheck(stunUrl)) : undefined), [stunUrl]);

  const line = check.status === 'unsupported' ? text.unsupported
    : check.status === 'running' ? text.running
    : leaks === null ? null
    : leaks.length ? fillTemplate(text.leak, { addresses: leaks.join(', ') })
    : text.noLeak;
  return (
    <section className="webrtc" aria-labelledby="webrtc-title">
      <h3 id="webrtc-title">{text.title}</h3>
      <p role="status" data-testid="webrtc-status" className={leaks?.length ? 'leak' : undefined}>{line}</p>
    </section>
  );
}
