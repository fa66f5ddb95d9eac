/**
 * /trust: the location accuracy visitors report by correcting their place, beside
 * the ground-truth figures and labelled as self-reported. The same figures SQL computes for
 * the analytics tab (GET /api/analytics, the last 30 days), asked when the section scrolls
 * into view; nothing is shown as a figure before the answer comes.
 */
import { useEffect, useState } from 'react';
import type { Dashboard } from '../lib/analytics.ts';
import { isDashboard } from '../lib/answer-guards.ts';
import { fetchJson } from '../stores/api-fetch.ts';
import { AccuracyTable } from './analytics/AccuracyTable.tsx';
import type { AnalyticsText } from './analytics/text.ts';
import './analytics/analytics.css';

interface Props {
  /** The analytics tab's table texts (content/site/lookup-text.json). */
  text: AnalyticsText;
  /** This section's own texts (content/site/accuracy-copy.json, `selfReported`). */
  copy: { heading: string; intro: string; none: string; rule: string; tooFew: string; unavailable: string };
}

type State = { status: 'loading' } | { status: 'loaded'; accuracy: Dashboard['accuracy'] } | { status: 'unavailable' };

export default function SelfReportedAccuracy({ text, copy }: Props) {
  const [state, setState] = useState<State>({ status: 'loading' });
  useEffect(() => {
    let live = true;
    void fetchJson('/api/analytics?period=30d', isDashboard, { cache: 'no-store' }).then((answer) => {
      if (live) setState(answer.ok ? { status: 'loaded', accuracy: answer.data.accuracy } : { status: 'unavailable' });
    });
    return () => { live = false; };
  }, []);
  const tableText = { ...text, accuracyTitle: copy.heading, accuracyIntro: `${copy.intro} ${copy.rule}`, accuracyNone: copy.none, accuracyTooFew: copy.tooFew };
  return (
    <div className="self-reported" data-testid="self-reported-accuracy" data-state={state.status} aria-live="polite">
      {state.status === 'loaded' ? <AccuracyTable accuracy={state.accuracy} text={tableText} level={3} /> : (
        <div className="card accuracy">
          <h3>{copy.heading}</h3>
          <p className="analytics-intro">{copy.intro} {copy.rule}</p>
          {state.status === 'unavailable' && <p>{copy.unavailable}</p>}
        </div>
      )}
    </div>
  );
}
