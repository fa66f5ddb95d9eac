/**
 * The verification card's search mode: a WAI-ARIA combobox (a text box that controls a
 * listbox of cities). Typing searches once the visitor pauses; Arrow Down/Up move
 * through the options (aria-activedescendant, focus stays in the box), Enter chooses,
 * Escape or Back returns to view mode. The list is at most 15rem high and scrolls.
 */
import { useEffect, useRef, type KeyboardEvent } from 'react';
import { fillTemplate } from '../lib/fill-template.ts';
import { candidateLine } from '../lib/verification.ts';
import { choose, closeSearch, moveActive, setQuery, type VerificationState } from '../stores/verification.ts';
import type { LookupText } from './use-lookup.ts';
import './lookup.css';

interface Props {
  text: LookupText['verification'];
  state: VerificationState;
}

const LIST_ID = 'city-search-list';
const optionId = (i: number) => `city-option-${i}`;
const population = new Intl.NumberFormat('en');

export default function CitySearch({ text, state }: Props) {
  const input = useRef<HTMLInputElement>(null);
  useEffect(() => input.current?.focus(), []);
  useEffect(() => {
    if (state.active >= 0) document.getElementById(optionId(state.active))?.scrollIntoView({ block: 'nearest' });
  }, [state.active]);

  const open = state.results.length > 0;
  function onKeyDown(event: KeyboardEvent<HTMLInputElement>) {
    if (event.key === 'ArrowDown' || event.key === 'ArrowUp') {
      event.preventDefault();
      // From the box, Arrow Down starts at the first option and Arrow Up at the last.
      moveActive(state.active === -1 && event.key === 'ArrowUp' ? state.results.length : event.key === 'ArrowDown' ? 1 : -1);
    } else if (event.key === 'Enter') {
      event.preventDefault();
      if (state.active >= 0) choose(state.active);
      else if (state.results.length === 1) choose(0);
    } else if (event.key === 'Escape') {
      event.preventDefault();
      closeSearch();
    }
  }

  return (
    <div className="city-search">
      <button type="button" className="button secondary back" onClick={closeSearch}>{text.back}</button>
      <label htmlFor="city-search-input" className="city-search-label">{text.searchLabel}</label>
      <input
        ref={input}
        id="city-search-input"
        className="city-search-input"
        type="text"
        role="combobox"
        autoComplete="off"
        spellCheck={false}
        maxLength={100}
        placeholder={text.placeholder}
        value={state.query}
        onChange={(e) => setQuery(e.target.value)}
        onKeyDown={onKeyDown}
        aria-autocomplete="list"
        aria-expanded={open}
        aria-controls={open ? LIST_ID : undefined}
        aria-activedescendant={open && state.active >= 0 ? optionId(state.active) : undefined}
        aria-describedby={state.status === 'short' ? 'city-search-hint' : undefined}
      />
      {state.status === 'short' && <p id="city-search-hint" className="hint">{text.hint}</p>}
      {state.status === 'searching' && <p className="hint">{text.searching}</p>}
      {state.status === 'done' && state.unverified && <p className="city-search-unverified">{text.unverified}</p>}
      {state.status === 'done' && !open && <p className="hint">{fillTemplate(text.noResults, { query: state.query.trim() })}</p>}
      {open && (
        <ul id={LIST_ID} role="listbox" aria-label={text.resultsLabel} className="city-results" data-testid="city-results">
          {state.results.map((c, i) => (
            <li
              key={`${c.city}|${c.latitude}|${c.longitude}`}
              id={optionId(i)}
              role="option"
              aria-selected={i === state.active}
              className="city-option"
              // mousedown would move focus out of the box before the click lands.
              onMouseDown={(e) => e.preventDefault()}
              onClick={() => choose(i)}
            >
              <span className="city-name">{c.city}</span>
              {state.unverified && <span className="badge tone-amber">{text.unverifiedTag}</span>}
              <span className="city-where">{candidateLine({ ...c, city: '' })}</span>
              {c.population !== null && <span className="hint">{fillTemplate(text.population, { population: population.format(c.population) })}</span>}
            </li>
          ))}
        </ul>
      )}
      <p className="visually-hidden" role="status" aria-live="polite">
        {state.status === 'done' && open ? fillTemplate(text.found, { count: state.results.length }) : ''}
      </p>
    </div>
  );
}
