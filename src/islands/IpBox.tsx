/** The IP address box: the address in big type; a click copies it, with a toast and a badge for 2 s. */
import { Fragment, useEffect, useRef, useState, type ReactNode } from 'react';
import { placeLine } from '../lib/place-line.ts';
import type { InitialRecord } from './page-record.ts';
import { useLookup, type LookupText } from './use-lookup.ts';
import { ISLAND_TEXT } from './island-text.ts';
import './lookup.css';

/** Copy feedback lasts 2 s. */
const FEEDBACK_MS = 2000;

/**
 * The address with line-break chances only after its colons: a long IPv6 address wraps
 * between groups on a narrow screen, never inside one (the text itself is unchanged).
 */
function breakable(ip: string): ReactNode {
  const groups = ip.split(':');
  return groups.map((group, i) => <Fragment key={i}>{group}{i < groups.length - 1 && <>:<wbr /></>}</Fragment>);
}

interface Props {
  initial?: InitialRecord;
  text?: LookupText['hero'];
}

export default function IpBox({ initial, text = ISLAND_TEXT.hero }: Props) {
  const { data, correction } = useLookup(initial);
  const [feedback, setFeedback] = useState<'copied' | 'failed' | null>(null);
  const timer = useRef<ReturnType<typeof setTimeout>>(undefined);
  useEffect(() => () => clearTimeout(timer.current), []);

  const ip = data?.data.ip;
  async function copy() {
    if (!ip) return;
    let ok = true;
    try {
      await navigator.clipboard.writeText(ip);
    } catch {
      ok = false;
    }
    setFeedback(ok ? 'copied' : 'failed');
    clearTimeout(timer.current);
    timer.current = setTimeout(() => setFeedback(null), FEEDBACK_MS);
  }

  return (
    <div className="ip-box">
      <p className="ip-label" id="ip-label">{text.ipLabel}</p>
      {ip ? (
        <button type="button" className="ip-value" data-testid="ip" onClick={copy} aria-describedby="ip-label ip-copy-hint">
          {breakable(ip)}
        </button>
      ) : (
        <span className="ip-value skeleton" aria-hidden="true">{'\u00a0'}</span>
      )}
      <p className="ip-meta">
        <span id="ip-copy-hint" className="hint">{text.copyHint}</span>
        {feedback === 'copied' && <span className="badge tone-green">{text.copiedBadge}</span>}
      </p>
      <p className="place-line" data-testid="place">
        {data ? placeLine(data.data) || text.unknownPlace : <span className="skeleton line" aria-hidden="true" />}
        {correction && <span className="badge tone-blue corrected-mark" data-testid="corrected">{correction.verified ? text.corrected : text.unverified}</span>}
      </p>
      <div className="toast-region" role="status" aria-live="polite">
        {feedback && <p className={`toast ${feedback === 'failed' ? 'toast-error' : ''}`}>{feedback === 'copied' ? text.copied : text.copyFailed}</p>}
      </div>
    </div>
  );
}
