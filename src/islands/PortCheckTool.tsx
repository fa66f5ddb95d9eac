/**
 * Island: "Is my port open?": a port box, common ports as one-click choices, and the
 * answer in plain words with what it means (state in $portCheck). The server checks the
 * visitor's own address only (src/server/handlers/port-api.ts).
 */
import './tools.css';
import { useStore } from '@nanostores/react';
import { useState, type SubmitEvent } from 'react';
import { fillTemplate } from '../lib/fill-template.ts';
import { $portCheck, checkPort } from '../stores/port-check.ts';
import type { ToolsCopy } from './copy.ts';
import { failureText } from './failure-text.ts';

interface Props { copy: ToolsCopy<'port'> }

export default function PortCheckTool({ copy }: Props) {
  const state = useStore($portCheck);
  const [value, setValue] = useState('');
  const busy = state.status === 'checking';

  function run(port: string) {
    setValue(port);
    if (port.trim()) void checkPort(port);
  }

  function submit(event: SubmitEvent<HTMLFormElement>) {
    event.preventDefault();
    run(value);
  }

  const result = state.status === 'done' ? state.result : null;
  const values = result && { port: String(result.port), ip: result.ip };
  return (
    <div className="port-check">
      <form className="lookup-form" onSubmit={submit}>
        <label htmlFor="port-number">{copy.inputLabel}</label>
        <div className="row">
          <input id="port-number" name="port" type="text" required inputMode="numeric" autoComplete="off"
            pattern="[0-9]*" maxLength={5} aria-describedby="port-number-hint"
            value={value} onChange={(event) => setValue(event.target.value)} />
          <button className="button" type="submit" disabled={busy}>{busy ? copy.busy : copy.submit}</button>
        </div>
        <p id="port-number-hint" className="hint">{copy.inputHint}</p>
      </form>
      <div className="common-ports" role="group" aria-label={copy.commonLabel}>
        {copy.common.map(({ port, name }) => (
          <button key={port} type="button" className="button secondary" disabled={busy} onClick={() => run(String(port))}>
            {fillTemplate(copy.commonButton, { port: String(port), name })}
          </button>
        ))}
      </div>
      <div aria-live="polite">
        {state.status === 'failed' && <p className="error" role="alert">{failureText(state.failure, copy)}</p>}
        {result && values && (
          <div className="card port-result" data-reachable={String(result.reachable)}>
            <p><strong>{fillTemplate(result.reachable ? copy.open : copy.closed, values)}</strong></p>
            <p>{fillTemplate(result.reachable ? copy.openMeaning : copy.closedMeaning, values)}</p>
          </div>
        )}
      </div>
      <p className="hint">{copy.note}</p>
    </div>
  );
}
