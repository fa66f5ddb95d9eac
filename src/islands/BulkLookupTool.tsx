/** Island: bulk lookup: the paste box, the count or over-limit warning, the table and the CSV download. */
import './tools.css';
import { useStore } from '@nanostores/react';
import { useState, type SubmitEvent } from 'react';
import { BULK_LIMIT } from '../lib/bulk.ts';
import { fillTemplate } from '../lib/fill-template.ts';
import { $bulkInput, $bulkLookup, $bulkText, fetchBulkCsv, runBulkLookup } from '../stores/bulk-lookup.ts';
import BulkResultsTable from './BulkResultsTable.tsx';
import type { ToolsCopy } from './copy.ts';
import { failureText } from './failure-text.ts';

interface Props { copy: ToolsCopy<'bulk'> }

/** Hands a text to the browser as a file download. */
function saveFile(text: string, name: string): void {
  const url = URL.createObjectURL(new Blob([text], { type: 'text/csv' }));
  const link = Object.assign(document.createElement('a'), { href: url, download: name });
  link.click();
  setTimeout(() => URL.revokeObjectURL(url), 0);
}

export default function BulkLookupTool({ copy }: Props) {
  const text = useStore($bulkText);
  const input = useStore($bulkInput);
  const state = useStore($bulkLookup);
  const [submitted, setSubmitted] = useState(false);
  const [download, setDownload] = useState<{ busy: boolean; error?: string }>({ busy: false });
  const busy = state.status === 'loading';

  function submit(event: SubmitEvent<HTMLFormElement>) {
    event.preventDefault();
    setSubmitted(true);
    void runBulkLookup();
  }

  async function downloadCsv() {
    setDownload({ busy: true });
    const csv = await fetchBulkCsv();
    if (csv.ok) saveFile(csv.data, copy.fileName);
    setDownload(csv.ok ? { busy: false } : { busy: false, error: fillTemplate(copy.downloadFailed, { message: failureText(csv.failure, copy) }) });
  }

  const count = input.ips.length;
  return (
    <div className="bulk-lookup">
      <form onSubmit={submit}>
        <label htmlFor="bulk-ips">{copy.inputLabel}</label>
        <textarea id="bulk-ips" name="ips" rows={8} spellCheck={false} aria-describedby="bulk-status"
          value={text} onChange={(event) => $bulkText.set(event.target.value)} />
        <div id="bulk-status" aria-live="polite">
          {input.tooMany
            ? <p className="error">{fillTemplate(copy.tooMany, { count, limit: BULK_LIMIT })}</p>
            : count > 0 && <p className="hint">{fillTemplate(copy.count, { count })}</p>}
          {input.duplicates > 0 && <p className="hint">{fillTemplate(copy.duplicates, { count: input.duplicates })}</p>}
          {submitted && count === 0 && <p className="error">{copy.empty}</p>}
        </div>
        <button className="button" type="submit" disabled={busy || input.tooMany}>{busy ? copy.busy : copy.submit}</button>
      </form>
      <div aria-live="polite">
        {state.status === 'failed' && <p className="error" role="alert">{failureText(state.failure, copy)}</p>}
      </div>
      {state.status === 'done' && (
        <>
          <BulkResultsTable results={state.response.results} copy={copy} />
          <button className="button secondary" type="button" onClick={downloadCsv} disabled={download.busy}>
            {download.busy ? copy.downloadBusy : copy.download}
          </button>
          {download.error && <p className="error" role="alert">{download.error}</p>}
        </>
      )}
    </div>
  );
}
