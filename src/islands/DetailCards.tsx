/**
 * Network Details, Location, Device Info and (optionally) the VPN verdict cards, with
 * skeletons while a first lookup loads. The verdict card gives each indicator's reason and
 * the privacy flags; it updates when the WebRTC check reports.
 */
import { verdictKey } from '../lib/badges.ts';
import { fillTemplate } from '../lib/fill-template.ts';
import type { ReactNode } from 'react';
import { formatCoordinates } from '../lib/place-line.ts';
import { asnPath } from '../lib/asn.ts';
import PrivacyFlags from './PrivacyFlags.tsx';
import type { InitialRecord } from './page-record.ts';
import { useHydratedStore, useLookup } from './use-lookup.ts';
import { $hostnames, ensureHostname } from '../stores/hostname.ts';
import { useEffect } from 'react';
import { CARD_TEXT, type CardText } from './island-text.ts';
import './lookup.css';

interface Props {
  initial?: InitialRecord;
  text?: CardText;
  /** Adds the VPN verdict card with its indicators. */
  vpn?: boolean;
  /** The visitor's device card; off on another address's page. */
  device?: boolean;
}

/** A card's rows: label and value; a null value is still loading (a skeleton line). */
function Card({ title, rows, note }: { title: string; rows: Array<[string, ReactNode]>; note?: string }) {
  return (
    <section className="card detail-card" aria-label={title}>
      <h3>{title}</h3>
      {note && <p className="hint corrected-note">{note}</p>}
      <dl>
        {rows.map(([label, value]) => (
          <div key={label}>
            <dt>{label}</dt>
            <dd>{value ?? <span className="skeleton line" aria-hidden="true" />}</dd>
          </div>
        ))}
      </dl>
    </section>
  );
}

export default function DetailCards({ initial, text = CARD_TEXT, vpn = false, device = true }: Props) {
  const { data, correction } = useLookup(initial);
  const r = data?.data;
  const d = data?.device;
  const v = (value: string | undefined) => (data ? (value ?? '') : null);
  const coordinates = r ? formatCoordinates(r.latitude, r.longitude) : undefined;
  const verdict = r ? verdictKey(r) : 'noVpn';
  // The network's own page (/AS15169), when the record names a network.
  const asnHref = r && asnPath(r.asn);
  // A record without the host name (not cached when the page was made): asked after load.
  const pending = !!r && r.hostname === undefined && !r.reserved;
  const asked = useHydratedStore($hostnames)[r?.ip ?? ''];
  useEffect(() => { if (pending && r) void ensureHostname(r.ip); }, [pending, r?.ip]);
  const host = pending ? asked : r;
  const hostname = !r ? null : !host ? null : host.hostname ? <>{host.hostname}{!host.hostname_confirmed && <> <span className="hint">{text.unconfirmed}</span></>}</> : text.noHostname;
  return (
    <div className="detail-cards">
      <Card title={text.networkTitle} rows={[[text.isp, v(r?.isp)], [text.asn, asnHref ? <a href={asnHref}>{r!.asn}</a> : v(r?.asn)], [text.hostname, hostname], [text.timezone, v(r?.timezone)], [text.postal, v(r?.postal)]]} />
      {r?.reserved ? (
        <section className="card detail-card" aria-label={text.locationTitle}>
          <h3>{text.locationTitle}</h3>
          <p>{fillTemplate(text.reserved, { kind: r.reserved })}</p>
        </section>
      ) : (
        <Card title={text.locationTitle} note={correction ? text.corrected : undefined} rows={[[text.city, v(r?.city)], [text.region, v(r?.region)], [text.country, v(r?.country_name)], [text.coordinates, v(coordinates)]]} />
      )}
      {!device ? null : data && !d ? (
        <section className="card detail-card" aria-label={text.deviceTitle}><h3>{text.deviceTitle}</h3><p>{text.noDevice}</p></section>
      ) : (
        <Card title={text.deviceTitle} rows={[[text.browser, v(d?.browser)], [text.os, v(d?.os)], [text.device, v(d?.device)]]} />
      )}
      {vpn && r && (
        <section className="card detail-card" id="vpn-check" aria-label={text.vpnTitle} data-testid="vpn-verdict">
          <h3>{text.vpnTitle}</h3>
          <p><span className={`badge tone-${verdict === 'noVpn' ? 'green' : 'red'}`}>{text[verdict]}</span></p>
          {r.vpn.indicators.length ? (
            <ul className="indicators">
              {r.vpn.indicators.map((name, i) => <li key={name}><strong>{name}</strong>: {r.vpn.reasons[i]}</li>)}
            </ul>
          ) : (
            <p>{text.vpnNone}</p>
          )}
          <PrivacyFlags privacy={r.privacy} text={text.privacy} />
        </section>
      )}
    </div>
  );
}
