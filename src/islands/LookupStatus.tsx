/**
 * The lookup's loading and error states: the loading block only while a first lookup is
 * in flight (pages without a server record), the 'Connection Error' screen when one fails.
 */
import { useEffect, useRef } from 'react';
import { $lookup, refreshLookup } from '../stores/lookup.ts';
import { useHydratedStore, type LookupText } from './use-lookup.ts';
import { ISLAND_TEXT } from './island-text.ts';
import './lookup.css';

interface Props {
  text?: LookupText['status'];
  /** Reserve a line for the loading text (pages that load their record in the browser). */
  loadingLine?: boolean;
}

export default function LookupStatus({ text = ISLAND_TEXT.status, loadingLine = false }: Props) {
  const { status, data } = useHydratedStore($lookup);
  const retry = useRef<HTMLButtonElement>(null);
  const failed = status === 'error';
  useEffect(() => { if (failed) retry.current?.focus(); }, [failed]);

  if (failed) {
    return (
      <div className="error-screen" role="alertdialog" aria-modal="true" aria-labelledby="lookup-error-title" aria-describedby="lookup-error-message">
        <div className="error-box">
          <h2 id="lookup-error-title">{text.errorTitle}</h2>
          <p id="lookup-error-message">{text.errorMessage}</p>
          <button ref={retry} type="button" className="button" onClick={() => void refreshLookup()}>{text.tryAgain}</button>
        </div>
      </div>
    );
  }
  // A refresh keeps the shown record (its button says 'Refreshing...'); only a first load shows this.
  // An element, not null: Astro recognises a React component by what its first render returns.
  if (!loadingLine) return <></>;
  return (
    <div className="loading-line" role="status">
      {status === 'loading' && !data && (
        <p><strong>{text.loading}</strong> <span>{text.loadingHint}</span></p>
      )}
    </div>
  );
}
