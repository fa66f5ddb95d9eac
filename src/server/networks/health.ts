/** The network index's line on /healthz, as the city index's (cities/health.ts), with its size. */
import type { NetworkIndexHandle } from './load.ts';

/** `data network index: …`: ok with its size, loading or missing (why), and why it was rebuilt, if it was. */
export function networkIndexLine(networks: NetworkIndexHandle): string {
  const current = networks.current();
  if (current instanceof Error) return `data network index: missing (${current.message})`;
  const rebuilt = networks.rebuiltBecause();
  const state = current === undefined ? 'loading' : `ok (${current.size} networks)`;
  return `data network index: ${rebuilt ? `${state} (rebuilt: ${rebuilt})` : state}`;
}
