/**
 * The location verification card: in view mode the shown place, its header badge, the
 * correction (with undo) and the buttons that open the search; in search mode the city
 * search (CitySearch.tsx). Without JavaScript it says that correcting needs it, and its
 * buttons stay disabled. State and rules live in src/stores/verification.ts.
 */
import { useEffect, useRef, useState } from 'react';
import { fillTemplate } from '../lib/fill-template.ts';
import { placeLine } from '../lib/place-line.ts';
import { candidateLine, verificationBadge } from '../lib/verification.ts';
import { $verification, openSearch, undo } from '../stores/verification.ts';
import CitySearch from './CitySearch.tsx';
import type { InitialRecord } from './page-record.ts';
import { useHydratedStore, useLookup, type LookupText } from './use-lookup.ts';
import { ISLAND_TEXT } from './island-text.ts';
import './lookup.css';

interface Props {
  initial?: InitialRecord;
  text?: LookupText['verification'];
  /** Heading level of the card's title: 3 inside a tab, 2 on its own. */
  level?: 2 | 3;
}

export default function VerificationCard({ initial, text = ISLAND_TEXT.verification, level = 3 }: Props) {
  const { data, correction } = useLookup(initial);
  const state = useHydratedStore($verification);
  const [hydrated, setHydrated] = useState(false);
  useEffect(() => setHydrated(true), []);
  const correctButton = useRef<HTMLButtonElement>(null);
  const wasSearching = useRef(false);
  // Leaving the search (Back, Escape, a choice) puts focus back where the search began.
  useEffect(() => {
    if (wasSearching.current && state.mode === 'view') correctButton.current?.focus();
    wasSearching.current = state.mode === 'search';
  }, [state.mode]);

  const Heading = `h${level}` as const;
  const Subheading = `h${level + 1}` as 'h3' | 'h4';
  const r = data?.data;
  const badge = r && verificationBadge(r);
  const place = r ? placeLine(r) : '';
  const ready = hydrated && !!r && !r.reserved;
  return (
    <section className="card verification" aria-labelledby="verification-title" data-testid="verification">
      <div className="verification-head">
        <Heading id="verification-title">{text.title}</Heading>
        {badge && <span className={`badge tone-${badge.tone}`} data-testid="verification-badge">{text.badges[badge.badge]}</span>}
      </div>
      <noscript><p className="noscript">{text.noScript}</p></noscript>
      {state.mode === 'search' ? (
        <CitySearch text={text} state={state} />
      ) : (
        <>
          <p>{text.intro}</p>
          <p className="verification-place">
            <span className="hint">{text.shownLabel}</span>{' '}
            <strong data-testid="verification-place">{place || '\u00a0'}</strong>
          </p>
          {correction && (
            <p className="verification-corrected">
              {fillTemplate(correction.verified ? text.corrected : text.correctedUnverified, { place: correction.city })}{' '}
              <button type="button" className="button secondary" onClick={undo}>{text.undo}</button>
            </p>
          )}
          <button ref={correctButton} type="button" className="button" onClick={openSearch} disabled={!ready}>{text.correct}</button>
          <Subheading className="issues-title">{text.issuesLabel}</Subheading>
          <div className="issue-buttons">
            {(['wrongCity', 'wrongCountry', 'vpnShown'] as const).map((issue) => (
              <button key={issue} type="button" className="button secondary" onClick={openSearch} disabled={!ready}>{text.issues[issue]}</button>
            ))}
          </div>
          <p className="hint">{text.privacy}</p>
        </>
      )}
      <div className="toast-region" role="status" aria-live="polite">
        {state.toast && <p className="toast">{fillTemplate(text.toast, { place: candidateLine(state.toast) })}</p>}
        {state.undone && <span className="visually-hidden">{text.undone}</span>}
      </div>
    </section>
  );
}
