/** The city index's line on /healthz: it builds in the background when the build did not ship it. */
import type { CityIndexHandle } from './load.ts';

/** `data city index: …`: ok, loading or missing (why), and why it was rebuilt, if it was. */
export function cityIndexLine(cities: CityIndexHandle): string {
  const current = cities.current();
  if (current instanceof Error) return `data city index: missing (${current.message})`;
  const rebuilt = cities.rebuiltBecause();
  const state = current === undefined ? 'loading' : 'ok';
  return `data city index: ${rebuilt ? `${state} (rebuilt: ${rebuilt})` : state}`;
}
