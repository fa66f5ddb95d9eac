/**
 * Island: the live Core Web Vitals panel. 'Measuring...' with five placeholders until the
 * store's phase turns live, then one row per metric with value and rating (the rules: src/lib/web-vitals.ts).
 */
import './vitals.css';
import { useStore } from '@nanostores/react';
import { useEffect } from 'react';
import { formatVitalValue, VITAL_NAMES } from '../lib/web-vitals.ts';
import { $vitalReadings, $vitalsPhase, startVitals } from '../stores/web-vitals.ts';
import type { PerformanceCopy, VitalCopy } from './copy.ts';

interface Props {
  copy: PerformanceCopy<'vitals'>;
  /** The five metrics' names and descriptions, keyed by short name. */
  vitals: VitalCopy[];
}

export default function WebVitalsPanel({ copy, vitals }: Props) {
  const phase = useStore($vitalsPhase);
  const readings = useStore($vitalReadings);
  useEffect(startVitals, []);
  const byName = new Map(vitals.map((v) => [v.id, v]));

  if (phase === 'measuring') {
    return (
      <div className="vitals" aria-busy="true">
        <p role="status" className="measuring">{copy.measuring}</p>
        <ul className="vital-list" aria-hidden="true">
          {VITAL_NAMES.map((name) => <li key={name} className="vital placeholder" />)}
        </ul>
      </div>
    );
  }
  return (
    <div className="vitals">
      <ul className="vital-list" aria-live="polite">
        {VITAL_NAMES.map((name) => {
          const reading = readings[name];
          const info = byName.get(name);
          return (
            <li key={name} className={`vital ${reading?.rating ?? 'pending'}`} data-metric={name}>
              <span className="vital-name"><abbr title={info?.name}>{name}</abbr></span>
              <span className="vital-value">
                {reading ? `${formatVitalValue(name, reading.value)}${info?.unit ? ` ${info.unit}` : ''}` : copy.notMeasured}
              </span>
              {reading && <span className="vital-rating">{copy.ratings[reading.rating]}</span>}
              {info && <p className="vital-description">{info.description}</p>}
            </li>
          );
        })}
      </ul>
    </div>
  );
}
