/**
 * The shareable page of one address, `/lookup/{ip}`: which paths it answers, the locals
 * Astro renders it with (the same record, cards and map as `/`, through `lookup`), and
 * the `/lookup?ip=…` redirect that lets the plain HTML form on `/` reach it without
 * JavaScript. A valid address always gets its page; anything else gets the page's 400
 * answer (src/pages/lookup/[ip].astro), never a 404.
 */
import type { ClientConfig } from '../../lib/client-config.ts';
import { text, timedLookup, type AppRequest, type Handler } from '../http/handler.ts';
import type { Engine } from '../lookup/engine.ts';

const PREFIX = '/lookup/';

/** Whether a path is an address's page (one segment after /lookup/). */
export const isLookupPage = (path: string): boolean =>
  path.startsWith(PREFIX) && path.length > PREFIX.length && !path.includes('/', PREFIX.length);

/**
 * The locals of `/lookup/{ip}`: the address's record without the caller's device (the
 * page is about the address, and may be shared), or null with the query when it is not
 * an address.
 */
export function lookupPageLocals(engine: Engine, clientConfig: ClientConfig, req: AppRequest): App.Locals {
  const query = req.path.slice(PREFIX.length);
  return { clientIp: req.clientIp, lookup: timedLookup(engine, query)?.result ?? null, clientConfig, query };
}

/** `/lookup?ip=8.8.8.8` → 303 to `/lookup/8.8.8.8`; without an address, to the box on `/`. */
export function createLookupRedirect(): Handler {
  return (req) => {
    if (req.path !== '/lookup' || (req.method !== 'GET' && req.method !== 'HEAD')) return undefined;
    const ip = req.query.get('ip')?.trim();
    const location = ip ? PREFIX + encodeURIComponent(ip).replaceAll('%3A', ':') : '/#lookup';
    return text(303, `See ${location}`, { location });
  };
}
