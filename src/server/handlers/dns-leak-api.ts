/**
 * The DNS leak test's API (docs/api.md, "The DNS leak test"):
 * `POST /api/dns-leak` issues a random 128-bit token and the never-seen names under the
 * zone the browser is to load (6, or 36 with `?extended=1`); `GET /api/dns-leak/{token}`
 * answers the resolvers the DNS responder saw asking for them (src/server/dns-leak/), each looked
 * up like any address, and a verdict comparing them with the caller's own network
 * (src/lib/dns-leak-verdict.ts; its words and the named public resolvers in
 * content/site/dns-leak-verdicts.json). Per visitor and short-lived: never cached, never
 * recorded. 503 while the test is off or its notes' store does not answer. Each client has a
 * budget of live tokens (dns-leak/notes.ts) and starts at most DNS_LEAK_RATE_LIMIT tests a minute
 * (the `dns-leak-start` class of its route row in routes.ts, besides the API's limit).
 */
import { randomBytes } from 'node:crypto';
import verdictsFile from '../../../content/site/dns-leak-verdicts.json' with { type: 'json' };
import { clientKey } from '../../lib/client-key.ts';
import { dnsLeakVerdict, verdictText, type VerdictResolver } from '../../lib/dns-leak-verdict.ts';
import { reservedKind } from '../../lib/ip-address.ts';
import { UNKNOWN, type IpInfo } from '../../lib/record.ts';
import { dnsLeakVerdictsSchema } from '../../schemas/dns-leak-verdicts.ts';
import { MAX_NAMES, TOKEN } from '../dns-leak/answer.ts';
import { TOKEN_TTL_MS, type NoteStore, type SeenResolver } from '../dns-leak/notes.ts';
import { json, jsonError, methodNotAllowed, type AppRequest, type AppResponse, type Handler } from '../http/handler.ts';
import type { Engine } from '../lookup/engine.ts';

const PATH = '/api/dns-leak';
/** Names of the standard test and of the extended one. */
export const NAMES_STANDARD = 6;
export const NAMES_EXTENDED = MAX_NAMES;

const COPY = dnsLeakVerdictsSchema.parse(verdictsFile);
const OPERATORS = new Map(COPY.operators.flatMap((o) => o.asns.map((asn) => [asn, o.name] as const)));

/** What the test needs: its zone (null while off) and where its notes are. */
export interface DnsLeakSource {
  zone: string | null;
  notes: NoteStore | undefined;
}

const known = (text: string): string | null => (text && text !== UNKNOWN ? text : null);
const asnNumber = (asn: string): number | null => (/^AS\d+$/.test(asn) ? Number(asn.slice(2)) : null);

/** A resolver as the API answers it: what the responder noted, and its lookup. */
function resolverJson(seen: SeenResolver, data: IpInfo) {
  const asn = asnNumber(data.asn);
  return {
    ip: seen.ip,
    transports: seen.transports,
    ecs: seen.ecs,
    dnssec_ok: seen.dnssecOk,
    queries: seen.queries,
    first_seen: new Date(seen.firstSeen).toISOString(),
    asn,
    as_name: known(data.asn_org),
    operator: asn === null ? null : OPERATORS.get(asn) ?? null,
    country: known(data.country_code),
    country_name: known(data.country_name),
    city: known(data.city),
    network_type: data.network_type,
    privacy: data.privacy,
  };
}

/**
 * Whose budget of live tokens a start counts in (dns-leak/notes.ts): the client as the rate limit
 * counts one, an IPv4 address or an IPv6 /64; none for the clients it exempts (private and
 * loopback: behind a proxy not trusted for the client's address, every visitor is one).
 */
const budgetKey = (req: AppRequest): string | undefined =>
  req.clientAddress && !reservedKind(req.clientAddress) ? clientKey(req.clientAddress) : undefined;

const unavailable = (): AppResponse => jsonError(503, 'dns_leak_unavailable', 'The DNS leak test cannot keep its notes right now; please try again in a minute.');

/** Creates the handler. */
export function createDnsLeakApi(test: DnsLeakSource, engine: Engine): Handler {
  async function start(req: AppRequest, zone: string, notes: NoteStore): Promise<AppResponse> {
    const extended = req.query.get('extended');
    if (extended !== null && !['0', '1', 'true', 'false'].includes(extended)) {
      return jsonError(400, 'invalid_extended', 'extended is 1 (36 names) or 0 (6 names).');
    }
    const count = extended === '1' || extended === 'true' ? NAMES_EXTENDED : NAMES_STANDARD;
    const token = randomBytes(16).toString('hex');
    try {
      await notes.issue(token, count, budgetKey(req));
    } catch {
      return unavailable();
    }
    const names = Array.from({ length: count }, (_, i) => `${token}-${i + 1}.${zone}`);
    return json(201, { token, names, expires_in: TOKEN_TTL_MS / 1000 });
  }

  async function result(req: AppRequest, token: string, notes: NoteStore): Promise<AppResponse> {
    let seen;
    try {
      seen = await notes.read(token);
    } catch {
      return unavailable();
    }
    if (!seen) return jsonError(404, 'unknown_token', 'No DNS leak test with this token: it was never started here, or its 2 minutes are over.');
    const resolvers = seen.resolvers.map((r) => resolverJson(r, engine.lookup(r.ip).data));
    const caller = engine.lookup(req.clientIp, { headers: req.headers }).data;
    const verdict = dnsLeakVerdict(
      { asn: asnNumber(caller.asn), vpn: caller.vpn_detected || caller.privacy.vpn === true || caller.privacy.proxy === true },
      resolvers.map((r): VerdictResolver => ({ asn: r.asn, asName: r.as_name, operator: r.operator, countryName: r.country_name, networkType: r.network_type })),
    );
    return json(200, {
      token, names_total: seen.names, names_seen: seen.seen.length, resolvers,
      verdict: { state: verdict.state, text: verdictText(verdict, COPY.verdicts) },
    });
  }

  return (req) => {
    if (req.method === 'OPTIONS' || (req.path !== PATH && !req.path.startsWith(`${PATH}/`))) return undefined;
    const reading = req.path !== PATH;
    if (reading ? req.method !== 'GET' && req.method !== 'HEAD' : req.method !== 'POST') {
      return reading ? methodNotAllowed('GET, HEAD') : methodNotAllowed('POST', 'Use POST to start a DNS leak test.');
    }
    const { zone, notes } = test;
    if (!zone || !notes) return jsonError(503, 'dns_leak_off', 'The DNS leak test is not set up on this server (no DNS zone is delegated to it).');
    if (!reading) return start(req, zone, notes);
    const token = req.path.slice(PATH.length + 1);
    if (!TOKEN.test(token)) return jsonError(400, 'invalid_token', `A DNS leak test token is 32 lowercase hex digits; "${token.slice(0, 64)}" is not.`);
    return result(req, token, notes);
  };
}
