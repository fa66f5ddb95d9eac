/**
 * The map card's island: a box of fixed height that loads Leaflet (a separate chunk)
 * once it scrolls into view, creates the map once, and moves marker and circle when
 * the record changes. Special-purpose addresses get a sentence instead of a map. After
 * the visitor chose their city, the circle is that city's reach, not the IP's accuracy.
 */
import { useEffect, useRef, useState } from 'react';
import type { ClientConfig } from '../lib/client-config.ts';
import { UNKNOWN_RADIUS_M } from '../lib/accuracy.ts';
import { cityRadius, sayRadius } from '../lib/accuracy-sentence.ts';
import { formatAccuracyRadius } from '../lib/badges.ts';
import { fillTemplate } from '../lib/fill-template.ts';
import { mapCenter } from '../lib/map-center.ts';
import { measuredPercent } from '../lib/measured-share.ts';
import { $clientConfig, ensureClientConfig } from '../stores/client-config.ts';
import type { MapHandle, MapPlace } from './leaflet-map.ts';
import { $lookup } from '../stores/lookup.ts';
import { useFirstVisible, useHydratedStore, useShownLookup, type LookupText } from './use-lookup.ts';
import { ISLAND_TEXT, MEASURED_CELLS } from './island-text.ts';
import './lookup.css';

interface Props {
  config?: ClientConfig | null;
  text?: LookupText['map'];
  /** 600 px (the map tab) instead of the card's 384 px. */
  tall?: boolean;
}

/** Reads the store only (a map cannot render on the server); other islands seed or load it. */
export default function MapWidget({ config, text = ISLAND_TEXT.map, tall = false }: Props) {
  const { data, correction } = useShownLookup(useHydratedStore($lookup));
  const clientConfig = useHydratedStore($clientConfig);
  const box = useRef<HTMLDivElement>(null);
  const handle = useRef<MapHandle | null>(null);
  const [ready, setReady] = useState(false);
  useEffect(() => { void ensureClientConfig(config ?? undefined); }, [config]);

  const r = data?.data;
  // A chosen city of known size: the circle is its reach (an unverified name has no place to draw).
  const chosen = correction?.verified ? cityRadius(correction.population) : null;
  const place: MapPlace | null = r && !r.reserved ? {
    ...mapCenter(r.latitude, r.longitude),
    radius: chosen ?? (r.accuracy_radius > 0 ? r.accuracy_radius : UNKNOWN_RADIUS_M),
    city: r.city, country: r.country_name, tooltip: correction?.verified ? text.correctedTooltip : text.tooltip, label: text.label,
  } : null;

  const measured = r ? measuredPercent(r, MEASURED_CELLS) : null;
  const note = chosen ? text.correctedNote : measured === null ? text.noteUnmeasured : text.note;

  // The box exists only for a public address: watch again when that changes.
  const visible = useFirstVisible(box, place === null);

  const placeKey = place && JSON.stringify(place);
  useEffect(() => {
    if (!visible || !place || !clientConfig || !box.current) return;
    if (handle.current) return handle.current.update(place);
    let cancelled = false;
    const el = box.current;
    void import('./leaflet-map.ts').then(({ createMap }) => {
      // Created once per widget: a second effect run finds the handle and only updates.
      if (cancelled || handle.current) return;
      handle.current = createMap(el, place, { url: clientConfig.tileUrl, attribution: clientConfig.tileAttribution });
      setReady(true);
    });
    return () => { cancelled = true; };
    // placeKey stands for place: recreate nothing, update when the values change.
  }, [visible, placeKey, clientConfig]);
  useEffect(() => () => { handle.current?.destroy(); handle.current = null; }, []);

  if (r?.reserved) return <p className="map-reserved">{fillTemplate(text.reserved, { kind: r.reserved })}</p>;
  return (
    <figure className="map-figure">
      <div className={`map-box${tall ? ' map-tall' : ''}`}>
        {/* Leaflet owns this element's children; React never renders into it. */}
        <div ref={box} className="map-canvas" role="region" aria-label={text.label} data-testid="map" />
        {!ready && <p className="map-placeholder">{text.loading}</p>}
      </div>
      {/* Empty until there is a record: no radius is shown that nothing measured. */}
      <figcaption>{r ? fillTemplate(note, { radius: chosen ? sayRadius(chosen) : formatAccuracyRadius(r.accuracy_radius), place: r.city, percent: measured ?? '' }) : null}</figcaption>
    </figure>
  );
}
