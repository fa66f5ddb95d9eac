/**
 * The DNS leak test's card: a Start button, the progress (announced as it changes), the
 * resolvers that asked our DNS server as a table, and the server's one sentence of verdict.
 * Nothing at all where the site has no zone for the test (`zone` null). The test itself
 * runs in the store (src/stores/dns-leak.ts); this only shows it.
 */
import { useStore } from '@nanostores/react';
import { networkPath } from '../lib/asn.ts';
import type { DnsResolver } from '../lib/dns-leak-record.ts';
import { fillTemplate } from '../lib/fill-template.ts';
import { $dnsLeak, startDnsLeakTest, type DnsLeakFailure, type DnsLeakState } from '../stores/dns-leak.ts';
import { DNS_LEAK_TEXT, type DnsLeakText } from './dns-leak-text.ts';
import ScrollTable from './ScrollTable.tsx';
import './tools.css';
import './dns-leak.css';

interface Props {
  /** The zone the test's names are under (ClientConfig.dnsLeakZone); null: no card. */
  zone: string | null;
  /** Heading level of the card's title (2 on the tool page, 3 inside a tab). */
  level?: 2 | 3;
  text?: DnsLeakText<'card'>;
}

function failureLine(failure: DnsLeakFailure, text: DnsLeakText<'card'>): string {
  return failure.kind === 'api' ? fillTemplate(text.failures.api, { message: failure.message }) : text.failures[failure.kind];
}

function progressLine(state: DnsLeakState, text: DnsLeakText<'card'>): string {
  if (state.status === 'idle') return '';
  if (state.status === 'failed') return failureLine(state.failure, text);
  if (!state.result) return text.waiting;
  const counts = { seen: state.result.names_seen, total: state.result.names_total };
  return fillTemplate(state.status === 'done' ? text.done : text.progress, counts);
}

function ResolverTable({ resolvers, text }: { resolvers: DnsResolver[]; text: DnsLeakText<'card'> }) {
  const { columns, unknown } = text;
  const headers = [columns.address, columns.network, columns.asn, columns.place, columns.transport, columns.ecs];
  return (
    <ScrollTable className="bulk-results dns-resolvers" captionId="dns-leak-caption" caption={text.caption} headers={headers}>
      {resolvers.map((r) => (
        <tr key={r.ip}>
          <th scope="row">{r.ip}</th>
          <td>{r.operator ?? r.as_name ?? unknown}</td>
          <td>{r.asn === null ? unknown : <a href={networkPath(r.asn)}>AS{r.asn}</a>}</td>
          <td>{[r.city, r.country_name ?? r.country].filter(Boolean).join(', ') || unknown}</td>
          <td>{r.transports.map((t) => t.toUpperCase()).join(', ')}</td>
          <td>{r.ecs ?? text.noEcs}</td>
        </tr>
      ))}
    </ScrollTable>
  );
}

export default function DnsLeakCard({ zone, level = 3, text = DNS_LEAK_TEXT.card }: Props) {
  const state = useStore($dnsLeak);
  if (!zone) return null;
  const Heading = `h${level}` as const;
  const running = state.status === 'running';
  const result = state.status === 'running' || state.status === 'done' ? state.result : null;
  const verdict = state.status === 'done' ? state.result.verdict : null;
  return (
    <section className="dns-leak" id="dns-leak" aria-labelledby="dns-leak-title" data-status={state.status}>
      <Heading id="dns-leak-title">{text.title}</Heading>
      <p>{text.intro}</p>
      <button type="button" className="button" aria-disabled={running || undefined} onClick={() => { if (!running) void startDnsLeakTest(); }}>
        {running ? text.running : state.status === 'idle' ? text.start : text.again}
      </button>
      <p role="status" className={state.status === 'failed' ? 'failed' : 'dns-progress'}>{progressLine(state, text)}</p>
      {verdict && <p className={`dns-verdict verdict-${verdict.state}`} data-testid="dns-leak-verdict">{verdict.text}</p>}
      {result && result.resolvers.length > 0 && <ResolverTable resolvers={result.resolvers} text={text} />}
    </section>
  );
}
