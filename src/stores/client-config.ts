/**
 * `$clientConfig`: runtime settings (tiles, STUN) for the islands. `/` passes them in;
 * prerendered pages load them once from GET /api/config.
 */
import { atom } from 'nanostores';
import type { ClientConfig } from '../lib/client-config.ts';
import { isClientConfig } from '../lib/answer-guards.ts';
import { fetchJson } from './api-fetch.ts';

export const $clientConfig = atom<ClientConfig | null>(null);

let loading: Promise<void> | null = null;

/** Uses the config the page was rendered with, or fetches it (once) when there is none. */
export function ensureClientConfig(initial?: ClientConfig): Promise<void> {
  if ($clientConfig.get()) return Promise.resolve();
  if (initial) {
    $clientConfig.set(initial);
    return Promise.resolve();
  }
  loading ??= fetchJson('/api/config', isClientConfig).then((result) => {
    if (result.ok) $clientConfig.set(result.data);
    else loading = null;
  });
  return loading;
}
