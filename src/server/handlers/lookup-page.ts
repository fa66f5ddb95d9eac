/**
 * The record pages' locals: the visitor's own on `/` and `/ip-2`, and the shareable page
 * of one address, `/lookup/{ip}` (the same record, cards and map, through `lookup`); and
 * the `/lookup?ip=…` redirect that lets the plain HTML form on `/` reach it without
 * JavaScript. A valid address always gets its page; anything else gets the page's 400
 * answer (src/pages/lookup/[ip].astro), never a 404. A page never waits for DNS: it
 * carries the name when cached (reverse-dns/record-hostname.ts `nameIfCached`).
 */
import type { ClientConfig } from '../../lib/client-config.ts';
import type { LookupResponse } from '../../lib/record.ts';
import { text, type AppRequest, type Handler } from '../http/handler.ts';
import { timedLookup } from '../lookup/timed-lookup.ts';
import type { Engine } from '../lookup/engine.ts';
import type { ReverseDns } from '../reverse-dns/reverse-dns.ts';
import { nameIfCached } from '../reverse-dns/record-hostname.ts';

const PREFIX = '/lookup/';

/**
 * The locals of `/lookup/{ip}`: the address's record without the caller's device (the
 * page is about the address, and may be shared), or null with the query when it is not
 * an address.
 */
export function lookupPageLocals(engine: Engine, clientConfig: ClientConfig, req: AppRequest): App.Locals {
  const query = req.path.slice(PREFIX.length);
  return { clientIp: req.clientIp, lookup: timedLookup(engine, query)?.result ?? null, clientConfig, query };
}

/** What the record pages' locals are made of; `record` is told of each visitor's own lookup (analytics). */
export interface RecordPageParts {
  engine: Engine;
  clientConfig: ClientConfig;
  dns: ReverseDns;
  record: (req: AppRequest, data: LookupResponse['data']) => void;
}

/**
 * The locals of the record pages: `visitor` for `/` and `/ip-2`, the caller's own record
 * (recorded, as the API's is); `address` for `/lookup/{ip}`, about that address and not
 * recorded, as /api/lookup/{ip} is not.
 */
export function recordPageLocals({ engine, clientConfig, dns, record }: RecordPageParts) {
  return {
    visitor: (req: AppRequest): App.Locals => {
      const lookup = engine.lookup(req.clientIp, { headers: req.headers });
      record(req, lookup.data);
      nameIfCached(lookup.data, dns);
      return { clientIp: req.clientIp, lookup, clientConfig };
    },
    address: (req: AppRequest): App.Locals => {
      const locals = lookupPageLocals(engine, clientConfig, req);
      nameIfCached(locals.lookup?.data, dns);
      return locals;
    },
  };
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
