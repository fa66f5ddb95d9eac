/**
 * Island: the leak checks of `/`'s VPN tab, loaded late. Its own code is these few lines;
 * the summary, the DNS leak test and their texts (LeakPanel.tsx) are fetched when it
 * hydrates, which `client:idle` puts after the page has loaded, so they add nothing to
 * what `/` loads before the map (tests/js-budget.test.ts).
 */
import { useEffect, useState, type ComponentType } from 'react';
import type { ClientConfig } from '../lib/client-config.ts';

type Panel = ComponentType<{ config: ClientConfig | null }>;

export default function LeakChecks({ config }: { config: ClientConfig | null }) {
  const [Panel, setPanel] = useState<Panel | null>(null);
  useEffect(() => { void import('./LeakPanel.tsx').then((m) => setPanel(() => m.default)); }, []);
  return Panel ? <Panel config={config} /> : null;
}
