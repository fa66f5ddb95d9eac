/** Island: the IPv4/IPv6 check: the address seen over each family, or why there is none. */
import './tools.css';
import { useStore } from '@nanostores/react';
import { useEffect } from 'react';
import { $ipFamilies, startFamilyCheck, type FamilyCheck } from '../stores/ip-families.ts';
import type { ToolsCopy } from './copy.ts';

interface Props { copy: ToolsCopy<'families'> }

function valueOf(check: FamilyCheck, copy: Props['copy']): string {
  switch (check.status) {
    case 'seen': return check.ip;
    case 'checking': return copy.checking;
    case 'unavailable': return copy.notAvailable;
    case 'not-configured': return copy.notConfigured;
  }
}

export default function IpFamilyCheck({ copy }: Props) {
  const state = useStore($ipFamilies);
  useEffect(startFamilyCheck, []);
  if (state.status === 'loading') return <p role="status">{copy.loading}</p>;
  if (state.status === 'config-failed') return <p className="error" role="alert">{copy.configFailed}</p>;
  const { ipv4, ipv6 } = state;
  if (ipv4.status === 'not-configured' && ipv6.status === 'not-configured') {
    return <p className="notice" role="status">{copy.noneConfigured}</p>;
  }
  const rows: Array<[string, FamilyCheck]> = [[copy.ipv4, ipv4], [copy.ipv6, ipv6]];
  return (
    <dl className="families" aria-live="polite">
      {rows.map(([label, check]) => (
        <div key={label} data-status={check.status}>
          <dt>{label}</dt>
          <dd className={check.status === 'seen' ? 'address' : undefined}>{valueOf(check, copy)}</dd>
        </div>
      ))}
    </dl>
  );
}
