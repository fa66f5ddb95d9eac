/**
 * The leak summary at the top of the VPN tab: WebRTC, DNS and IPv6 in one list, each with
 * its state (src/lib/leak-summary.ts) and a link to the check itself. The IPv6 row shows
 * only where the operator configured the IPv4/IPv6 check. The WebRTC check runs on its own
 * after load (its state comes in as a prop, LeakChecks.tsx), the DNS test when the visitor
 * starts it.
 */
import { useStore } from '@nanostores/react';
import { dnsLeakState, familyLeakState, webrtcLeakState, type LeakState } from '../lib/leak-summary.ts';
import { $dnsLeak } from '../stores/dns-leak.ts';
import { $familyLeak } from '../stores/family-leak.ts';
import { DNS_LEAK_TEXT, type DnsLeakText } from './dns-leak-text.ts';
import './dns-leak.css';

/** Where the WebRTC check stands: its status, and how many leaks it found (null: not classified). */
export interface WebrtcSummary { status: Parameters<typeof webrtcLeakState>[0]; leaks: number | null }

interface Props {
  zone: string | null;
  webrtc: WebrtcSummary;
  text?: DnsLeakText<'summary'>;
}

const STATE_TEXT: Record<LeakState, keyof DnsLeakText<'summary'>['states']> = {
  'no-leak': 'noLeak', leak: 'leak', 'not-tested': 'notTested', 'not-set-up': 'notSetUp', testing: 'testing', inconclusive: 'inconclusive',
};

export default function LeakSummary({ zone, webrtc, text = DNS_LEAK_TEXT.summary }: Props) {
  const dns = useStore($dnsLeak);
  const families = useStore($familyLeak);
  const rows: Array<{ id: string; label: string; state: LeakState; href: string | null }> = [
    { id: 'webrtc', label: text.rows.webrtc, state: webrtcLeakState(webrtc.status, webrtc.leaks), href: '#webrtc-title' },
    { id: 'dns', label: text.rows.dns, state: dnsLeakState(zone, dns.status, dns.status === 'done' ? dns.result.verdict.state : null), href: zone ? '#dns-leak' : null },
  ];
  // Until the settings are read the row is left out, as where no echo URL is configured: it never flickers in and out.
  const familyState = familyLeakState(families !== 'unreadable', families === 'unreadable' || families === 'unknown' ? null : families);
  if (familyState !== 'not-set-up') rows.push({ id: 'ipv6', label: text.rows.ipv6, state: familyState, href: '/ip-3#families' });
  return (
    <section className="leak-summary" aria-labelledby="leak-summary-title" data-testid="leak-summary">
      <h3 id="leak-summary-title">{text.title}</h3>
      <p>{text.intro}</p>
      <ul>
        {rows.map((row) => (
          <li key={row.id} data-check={row.id} data-state={row.state}>
            <span className="check">{row.label}</span>
            <span className={`state state-${row.state}`}>{text.states[STATE_TEXT[row.state]]}</span>
            {row.href && <a href={row.href}>{text.details}<span className="visually-hidden"> ({row.label})</span></a>}
          </li>
        ))}
      </ul>
    </section>
  );
}
