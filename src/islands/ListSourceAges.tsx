/**
 * /trust: every public list the server fetches by itself, with its licence and how old the
 * copy the server holds is. The credits come from content/site/list-sources.json (rendered
 * on the server, so they read without JavaScript); the ages from GET /api/data-sources,
 * asked when the section scrolls into view.
 */
import { useEffect, useState } from 'react';
import { ageText } from '../lib/data-age.ts';
import type { DataSource } from '../lib/data-sources.ts';
import { isDataSources } from '../lib/answer-guards.ts';
import { fillTemplate } from '../lib/fill-template.ts';
import { fetchJson } from '../stores/api-fetch.ts';

export interface ListSourceCredit { id: string; title: string; what: string; licence: string; licenceUrl: string; home: string }

interface Props {
  sources: ListSourceCredit[];
  /** The age line's texts: `fetched` ('{age}' marks the age), `stale`, `never`, `loading`, `unavailable`, and `licence` before the licence's name. */
  text: { fetched: string; stale: string; never: string; loading: string; unavailable: string; licence: string };
}

type State = { status: 'loading' | 'unavailable' } | { status: 'loaded'; byId: Map<string, DataSource>; now: number };

export default function ListSourceAges({ sources, text }: Props) {
  const [state, setState] = useState<State>({ status: 'loading' });
  useEffect(() => {
    let live = true;
    void fetchJson('/api/data-sources', isDataSources).then((answer) => {
      if (!live) return;
      setState(answer.ok ? { status: 'loaded', byId: new Map(answer.data.sources.map((s) => [s.id, s])), now: Date.now() } : { status: 'unavailable' });
    });
    return () => { live = false; };
  }, []);
  const age = (id: string): string => {
    if (state.status !== 'loaded') return text[state.status];
    const fetchedAt = state.byId.get(id)?.fetched_at;
    if (!fetchedAt) return text.never;
    const line = fillTemplate(text.fetched, { age: ageText(state.now - Date.parse(fetchedAt)) });
    return state.byId.get(id)?.stale ? `${line} ${text.stale}` : line;
  };
  return (
    <ul className="grid list-sources" data-testid="list-sources" data-state={state.status} aria-live="polite">
      {sources.map((s) => (
        <li key={s.id} className="card" data-source={s.id}>
          <h3><a href={s.home}>{s.title}</a></h3>
          <p>{s.what}</p>
          <p>{text.licence} <a href={s.licenceUrl}>{s.licence}</a></p>
          <p className="age">{age(s.id)}</p>
        </li>
      ))}
    </ul>
  );
}
