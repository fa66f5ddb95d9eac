/**
 * `/hostname`: the caller's host name (or, with `?ip=`, an address's) as one line, as the
 * other command-line fields are: the name, or an empty line when the address has none.
 * Asked as JSON (`Accept: application/json`) it answers `{ ip, hostname, hostname_confirmed }`:
 * what the network card on `/` fetches when the page's record came without the name, so
 * that filling it in records no second lookup in analytics.
 */
import { parseIp, formatIp } from '../../lib/ip-address.ts';
import type { HostnameRecord } from '../../lib/record.ts';
import { invalidIp, json, methodNotAllowed, text, type Handler } from '../http/handler.ts';
import type { ReverseDns } from '../reverse-dns/reverse-dns.ts';

/** Creates the `/hostname` handler, asked for its path only (its route row, routes.ts). */
export function createHostnameEndpoint(dns: ReverseDns): Handler {
  return async (req) => {
    if (req.method !== 'GET' && req.method !== 'HEAD') return methodNotAllowed('GET, HEAD', 'Use GET here.');
    const asked = req.query.get('ip') ?? req.clientIp;
    const parsed = parseIp(asked.trim());
    if (!parsed) return invalidIp(asked);
    const ip = formatIp(parsed);
    const answer = await dns.lookup(ip);
    if (/^application\/json\b/i.test((req.headers.get('accept') ?? '').trim())) {
      const body: HostnameRecord = { ip, ...answer };
      return json(200, body);
    }
    return text(200, answer.hostname ?? '');
  };
}
