/**
 * Island: the IPv4/IPv6 section of /ip-3. A family with an echo URL (PUBLIC_IPV4_URL,
 * PUBLIC_IPV6_URL) is tested on its own: the address our server saw over it. A family
 * without one is not tested, and the section says so in one sentence; its row shows what
 * the page does know instead: the address this visit came from, when it is of that
 * family, or the visitor's address of that family the WebRTC test found. Until the
 * settings are known, and when they cannot be read, there is no section at all.
 */
import './tools.css';
import { useStore } from '@nanostores/react';
import { useEffect } from 'react';
import { fillTemplate } from '../lib/fill-template.ts';
import { $ipFamilies, startFamilyCheck, type FamilyCheck, type IpFamiliesState } from '../stores/ip-families.ts';
import { $lookup } from '../stores/lookup.ts';
import { $webrtc, webrtcReportOf, type WebrtcReport } from '../stores/webrtc.ts';
import type { ToolsCopy } from './copy.ts';

interface Props { copy: ToolsCopy<'families'> }

type Ready = Extract<IpFamiliesState, { status: 'ready' }>;

function valueOf(check: FamilyCheck, version: 4 | 6, state: Ready, report: WebrtcReport | 'unchecked' | null, copy: Props['copy']): string {
  if (check.status === 'seen') return check.ip;
  if (check.status === 'checking') return copy.checking;
  if (check.status === 'unavailable') return copy.notAvailable;
  if (state.visit && state.visit !== 'asking' && state.visit.version === version) return fillTemplate(copy.thisVisit, { ip: state.visit.ip });
  const found = report && report !== 'unchecked' ? report.otherFamily.find((a) => a.ip_version === `ipv${version}`) : undefined;
  return found ? fillTemplate(copy.fromWebrtc, { ip: found.ip }) : state.visit === 'asking' ? copy.checking : copy.notTested;
}

export default function IpFamilyCheck({ copy }: Props) {
  const state = useStore($ipFamilies);
  const report = webrtcReportOf(useStore($webrtc), useStore($lookup));
  useEffect(startFamilyCheck, []);
  if (state.status !== 'ready') return null;
  const rows = [[copy.ipv4, state.ipv4, 4], [copy.ipv6, state.ipv6, 6]] as const;
  const untested = rows.some(([, check]) => check.status === 'not-configured');
  return (
    <section className="tool card" id="families" aria-labelledby="families-heading">
      <h2 id="families-heading">{copy.heading}</h2>
      <p>{copy.intro}</p>
      <dl className="families" aria-live="polite">
        {rows.map(([label, check, version]) => {
          const value = valueOf(check, version, state, report, copy);
          return (
            <div key={label} data-status={check.status}>
              <dt>{label}</dt>
              <dd className={check.status === 'seen' ? 'address' : undefined}>{value}</dd>
            </div>
          );
        })}
      </dl>
      {untested && <p className="hint">{copy.untested}</p>}
    </section>
  );
}
