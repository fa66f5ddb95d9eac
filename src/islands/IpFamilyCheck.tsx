/**
 * Island: the IPv4/IPv6 check, the whole /ip-3 section. It shows only where the operator
 * configured an echo URL (PUBLIC_IPV4_URL, PUBLIC_IPV6_URL), and only those families:
 * a visitor never reads an operator's message such as 'not configured'. Until the
 * settings are known, and when they cannot be read, there is no section at all.
 */
import './tools.css';
import { useStore } from '@nanostores/react';
import { useEffect } from 'react';
import { $ipFamilies, startFamilyCheck, type FamilyCheck } from '../stores/ip-families.ts';
import type { ToolsCopy } from './copy.ts';

interface Props { copy: ToolsCopy<'families'> }

function valueOf(check: FamilyCheck, copy: Props['copy']): string {
  return check.status === 'seen' ? check.ip : check.status === 'checking' ? copy.checking : copy.notAvailable;
}

export default function IpFamilyCheck({ copy }: Props) {
  const state = useStore($ipFamilies);
  useEffect(startFamilyCheck, []);
  if (state.status !== 'ready') return null;
  const rows = ([[copy.ipv4, state.ipv4], [copy.ipv6, state.ipv6]] as const).filter(([, check]) => check.status !== 'not-configured');
  if (rows.length === 0) return null;
  return (
    <section className="tool card" id="families" aria-labelledby="families-heading">
      <h2 id="families-heading">{copy.heading}</h2>
      <p>{copy.intro}</p>
      <dl className="families" aria-live="polite">
        {rows.map(([label, check]) => (
          <div key={label} data-status={check.status}>
            <dt>{label}</dt>
            <dd className={check.status === 'seen' ? 'address' : undefined}>{valueOf(check, copy)}</dd>
          </div>
        ))}
      </dl>
    </section>
  );
}
