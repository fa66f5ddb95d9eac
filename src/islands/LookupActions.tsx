/**
 * Refresh Data (reads 'Refreshing...' and is disabled while a lookup runs) and Export Data.
 * Both need JavaScript, so the server renders them disabled and hydration enables them:
 * with scripts off they never pretend to work, and nothing shifts when they come alive.
 */
import { useEffect, useState } from 'react';
import { downloadExport } from '../stores/export.ts';
import { $lookup, refreshLookup } from '../stores/lookup.ts';
import { useHydratedStore, type LookupText } from './use-lookup.ts';
import { ISLAND_TEXT } from './island-text.ts';
import './lookup.css';

interface Props {
  text?: LookupText['actions'];
}

/** Reads the store only: the record reaches it through the islands that render it. */
export default function LookupActions({ text = ISLAND_TEXT.actions }: Props) {
  const { status } = useHydratedStore($lookup);
  const loading = status === 'loading';
  const [hydrated, setHydrated] = useState(false);
  useEffect(() => setHydrated(true), []);
  return (
    <div className="actions">
      <button type="button" className="button" onClick={() => void refreshLookup()} disabled={!hydrated || loading} aria-busy={loading}>
        {loading ? text.refreshing : text.refresh}
      </button>
      <button type="button" className="button secondary" onClick={downloadExport} disabled={!hydrated}>
        {text.export}
      </button>
    </div>
  );
}
