/**
 * The lookup engine's part of /healthz: degraded while any city or ASN database is missing
 * (its fields are empty in every answer), with their names; the lists are lines, not parts
 * (a list not fetched yet leaves its check "not available", and says so).
 */
import type { PartHealth } from '../http/health.ts';
import type { EngineHolder } from './engine-holder.ts';

/** The databases' part: ok, or degraded with the missing ones' names. */
export function databasesHealth(engine: Pick<EngineHolder, 'dataStates'>): PartHealth {
  const missing = engine.dataStates().filter(([name, state]) => !name.endsWith(' list') && state !== 'ok').map(([name]) => name);
  return missing.length ? { state: 'degraded', missing } : { state: 'ok' };
}

/** One /healthz line per database and list: `data {name}: {state}`. */
export const dataLines = (engine: Pick<EngineHolder, 'dataStates'>): string[] =>
  engine.dataStates().map(([name, state]) => `data ${name}: ${state}`);
