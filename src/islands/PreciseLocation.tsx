/**
 * The opt-in GPS button: shown until the record is hybrid, and once hydrated only where the
 * browser has geolocation. The server's HTML (and the page before hydration) holds it
 * disabled, as LookupActions holds Refresh and Export: on a phone it takes its own row of the
 * hero, and appearing there only at hydration pushed everything below it down. The
 * permission prompt comes only from the click.
 */
import { useEffect } from 'react';
import { $gps, detectGps, requestGps } from '../stores/gps.ts';
import { $lookup } from '../stores/lookup.ts';
import { useHydratedStore, type LookupText } from './use-lookup.ts';
import { ISLAND_TEXT } from './island-text.ts';
import './lookup.css';

interface Props {
  text?: LookupText['gps'];
  /** Which button label: 'enable' on the home page, 'enableSimple' on /ip-2. */
  label?: 'enable' | 'enableSimple';
}

export default function PreciseLocation({ text = ISLAND_TEXT.gps, label = 'enable' }: Props) {
  const { data } = useHydratedStore($lookup);
  const gps = useHydratedStore($gps);
  useEffect(detectGps, []);
  const hybrid = data?.data.location_source === 'hybrid';
  const message = gps.status === 'asking' ? text.asking
    : gps.status === 'denied' ? text.denied
    : gps.status === 'timeout' ? text.timeout
    : gps.status === 'failed' ? text.failed
    : null;
  const pending = gps.status === 'unknown';
  const offered = !hybrid && (pending || gps.status === 'ready' || gps.status === 'denied' || gps.status === 'timeout' || gps.status === 'failed');
  // The box keeps its height whether or not the button shows, so nothing below moves; and
  // the button, once offered, stays (disabled) while the record it would refine is not in
  // the store yet, rather than going and coming back as the islands hydrate.
  return (
    <div className="gps-box">
      {offered && <button type="button" className="button secondary" disabled={pending || !data} onClick={requestGps}>{text[label]}</button>}
      <p className="gps-message" role="status">{hybrid ? null : message}</p>
    </div>
  );
}
