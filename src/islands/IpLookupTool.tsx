/**
 * Island: the "look up any IP" form and its result card (state in $ipLookup).
 * `/ip-3?ip=8.8.8.8` looks that address up on load, so links can point at a result and a
 * submit made before hydration (a plain GET of the form) still ends in a lookup.
 */
import './tools.css';
import { useStore } from '@nanostores/react';
import { useEffect, useState, type SubmitEvent } from 'react';
import { $ipLookup, lookupIp } from '../stores/ip-lookup.ts';
import type { ToolsCopy } from './copy.ts';
import { failureText } from './failure-text.ts';
import LookupResultCard from './LookupResultCard.tsx';
import type { LookupText } from './use-lookup.ts';

interface Props { copy: ToolsCopy<'lookup'>; privacyText: LookupText['privacy'] }

export default function IpLookupTool({ copy, privacyText }: Props) {
  const state = useStore($ipLookup);
  const [value, setValue] = useState('');
  const busy = state.status === 'loading';

  useEffect(() => {
    const linked = new URLSearchParams(window.location.search).get('ip')?.trim();
    if (linked) {
      setValue(linked);
      void lookupIp(linked);
    }
  }, []);

  function submit(event: SubmitEvent<HTMLFormElement>) {
    event.preventDefault();
    if (value.trim()) void lookupIp(value);
  }

  return (
    <div className="ip-lookup">
      <form className="lookup-form" onSubmit={submit} method="get" action="/ip-3">
        <label htmlFor="lookup-ip">{copy.inputLabel}</label>
        <div className="row">
          <input id="lookup-ip" name="ip" type="text" required inputMode="text" autoComplete="off"
            spellCheck={false} aria-describedby="lookup-ip-hint"
            value={value} onChange={(event) => setValue(event.target.value)} />
          <button className="button" type="submit" disabled={busy}>{busy ? copy.busy : copy.submit}</button>
        </div>
        <p id="lookup-ip-hint" className="hint">{copy.inputHint}</p>
      </form>
      <div aria-live="polite">
        {state.status === 'failed' && <p className="error" role="alert">{failureText(state.failure, copy)}</p>}
        {state.status === 'done' && <LookupResultCard result={state.result} query={state.query} copy={copy} privacyText={privacyText} />}
      </div>
    </div>
  );
}
