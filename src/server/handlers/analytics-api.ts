/**
 * `GET /api/analytics?period=24h|7d|30d` (the dashboard) and `GET /api/analytics.csv`
 * (the period's lookups, masked). Who reads what: the aggregates are public, they say
 * nothing about anyone; the 10 most recent lookups and the CSV go only to the operator,
 * meaning a loopback or private-network client or a request with
 * `Authorization: Bearer $ANALYTICS_TOKEN`. Operator answers carry no CORS header, so a
 * page on another site cannot read them through an operator's browser.
 */
import { timingSafeEqual } from 'node:crypto';
import { DEFAULT_PERIOD, isPeriod, maskedNetwork, type Period } from '../../lib/analytics.ts';
import { reservedKind } from '../../lib/ip-address.ts';
import { csvDocument } from '../../lib/csv.ts';
import { json, jsonError, methodNotAllowed, type AppRequest, type AppResponse, type Handler } from '../http/handler.ts';
import type { Analytics } from '../storage/analytics.ts';
import type { StoredLookup } from '../storage/types.ts';

/** Most rows the CSV carries: the period's newest. */
export const CSV_ROW_LIMIT = 10_000;
/** A dashboard query slower than this answers 503 instead of holding the request. */
const QUERY_TIMEOUT_MS = 5_000;

type Access = 'operator' | 'public' | 'bad-token';

/**
 * Operator: loopback or private client, or the right bearer token; a wrong bearer token is
 * refused. Other schemes (a proxy's Basic auth) are not ours to judge and are ignored.
 */
export function accessOf(req: AppRequest, token: string | undefined): Access {
  const auth = req.headers.get('authorization');
  if (auth !== null && /^Bearer\b/i.test(auth.trim())) {
    const given = /^Bearer\s+(\S+)\s*$/i.exec(auth.trim())?.[1];
    if (!token || !given) return 'bad-token';
    const a = Buffer.from(given);
    const b = Buffer.from(token);
    return a.length === b.length && timingSafeEqual(a, b) ? 'operator' : 'bad-token';
  }
  const kind = req.clientAddress && reservedKind(req.clientAddress);
  return kind === 'Loopback' || kind === 'Private network' ? 'operator' : 'public';
}

/** The CSV of stored lookups: masked network, place, verdict, time. */
export function analyticsCsv(rows: readonly StoredLookup[]): string {
  return csvDocument([
    ['ip', 'city', 'country', 'vpn_detected', 'timestamp'],
    ...rows.map((r) => [maskedNetwork(r.ipPrefix), r.city, r.countryName, r.vpnDetected, new Date(r.at).toISOString()]),
  ]);
}

async function withTimeout<T>(work: Promise<T>): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  try {
    return await Promise.race([work, new Promise<never>((_, reject) => { timer = setTimeout(() => reject(new Error('timeout')), QUERY_TIMEOUT_MS); })]);
  } finally {
    clearTimeout(timer);
  }
}

const unavailable = (): AppResponse =>
  jsonError(503, 'analytics_unavailable', 'The analytics database cannot be reached right now. Try again in a minute.', { 'retry-after': '60' });

/** Creates the handler of /api/analytics and /api/analytics.csv. */
export function createAnalyticsApi(analytics: Analytics, token: string | undefined): Handler {
  async function answer(req: AppRequest, csv: boolean): Promise<AppResponse> {
    const asked = req.query.get('period');
    if (asked !== null && !isPeriod(asked)) {
      return jsonError(400, 'invalid_period', `period must be 24h, 7d or 30d, not "${asked.slice(0, 20)}".`);
    }
    const period: Period = asked ?? DEFAULT_PERIOD;
    if (!analytics.enabled) return jsonError(404, 'analytics_off', 'Analytics are turned off on this server.');
    const access = accessOf(req, token);
    if (access === 'bad-token') {
      return jsonError(401, 'invalid_token', 'The bearer token is not this server\'s ANALYTICS_TOKEN.', { 'www-authenticate': 'Bearer' });
    }
    const operator = access === 'operator';
    if (csv && !operator) {
      return jsonError(403, 'operator_only',
        'The CSV lists recent lookups: ask from the server\'s own network, or send Authorization: Bearer with ANALYTICS_TOKEN.');
    }
    try {
      if (csv) {
        const rows = await withTimeout(analytics.latest(period, CSV_ROW_LIMIT));
        return {
          status: 200,
          headers: {
            'content-type': 'text/csv; charset=utf-8',
            'content-disposition': `attachment; filename="ip-analytics-${period}.csv"`,
            'cache-control': 'private, no-store',
          },
          body: analyticsCsv(rows),
          cors: false,
        };
      }
      const dashboard = await withTimeout(analytics.dashboard(period, { recent: operator }));
      return operator ? { ...json(200, dashboard), cors: false } : json(200, dashboard);
    } catch {
      return unavailable();
    }
  }

  return (req) => {
    const csv = req.path === '/api/analytics.csv';
    if (!csv && req.path !== '/api/analytics') return undefined;
    if (req.method === 'OPTIONS') return undefined; // the API's CORS preflight answers
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      return methodNotAllowed('GET, HEAD', 'Use GET here.');
    }
    return answer(req, csv);
  };
}
