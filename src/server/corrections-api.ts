/**
 * `POST /api/corrections`: a visitor chose the city they are really in. The body carries
 * only that city's coordinates, `{ "latitude", "longitude" }`; the server looks up the
 * caller's own address (never one the body names) and records how far the IP-based place
 * was from the chosen city, the country and network type, and which city source was
 * nearer (src/lib/correction.ts). The address itself is never recorded, and with
 * `Sec-GPC: 1` or `DNT: 1` nothing is. Answers 202 `{ recorded: true, correction }` or
 * 200 `{ recorded: false, reason }`; a bad body is a 400 (tests/corrections-api.test.ts).
 */
import * as z from 'zod/mini';
import { haversineKm } from '../lib/confidence.ts';
import type { CorrectionEvent, CorrectionRecorder } from '../lib/correction.ts';
import { describeIssue, json, jsonError, methodNotAllowed, readJson, timedLookup, type AppRequest, type AppResponse, type Handler } from './http.ts';
import type { Engine, SourcePlace } from './lookup/engine.ts';

const PATH = '/api/corrections';

const coordinate = (name: string, max: number) => {
  const error = `${name} is a number from -${max} to ${max}`;
  return z.number({ error }).check(z.gte(-max, { error }), z.lte(max, { error }));
};
const CorrectionBodySchema = z.strictObject(
  { latitude: coordinate('latitude', 90), longitude: coordinate('longitude', 180) },
  { error: 'Send {"latitude", "longitude"} of the chosen city, and nothing else.' },
);

/** Rounded to 0.1 km, as the event stores it. */
const km = (lat1: number, lon1: number, lat2: number, lon2: number) => Math.round(haversineKm(lat1, lon1, lat2, lon2) * 10) / 10;

/** The source whose own city lay nearer the chosen point; 'tie' when equal or only one named a city; 'unknown' when none did. */
export function nearerSource(places: readonly SourcePlace[], latitude: number, longitude: number): string {
  const named = places.filter((p) => p.city !== '');
  if (named.length === 0) return 'unknown';
  if (named.length === 1) return 'tie';
  const [a, b] = named.map((p) => km(p.latitude, p.longitude, latitude, longitude)) as [number, number];
  return a === b ? 'tie' : a < b ? named[0]!.source : named[1]!.source;
}

/** True when the request asks not to be tracked (Global Privacy Control or Do Not Track). */
export function declinesTracking(headers: AppRequest['headers']): boolean {
  return headers.get('sec-gpc')?.trim() === '1' || headers.get('dnt')?.trim() === '1';
}

const notRecorded = (reason: string): AppResponse => json(200, { recorded: false, reason });

/** Creates the handler; events go to `recorder` (in memory until the analytics store takes over). */
export function createCorrectionsApi(engine: Engine, recorder: CorrectionRecorder): Handler {
  async function record(req: AppRequest): Promise<AppResponse> {
    const body = await readJson(req);
    if (!('value' in body)) return body;
    const parsed = CorrectionBodySchema.safeParse(body.value);
    if (!parsed.success) return jsonError(400, 'invalid_request', describeIssue(parsed.error));
    if (declinesTracking(req.headers)) return notRecorded('Your browser asked not to be tracked (Sec-GPC or DNT), so nothing was recorded.');
    const { latitude, longitude } = parsed.data;
    const data = timedLookup(engine, req.clientIp)?.result.data;
    if (!data || data.reserved || data.country_code === 'Unknown') {
      return notRecorded('Your address has no IP-based place to compare with, so nothing was recorded.');
    }
    const event: CorrectionEvent = {
      distance_km: km(data.latitude, data.longitude, latitude, longitude),
      country_code: data.country_code,
      network_type: data.network_type,
      nearer_source: nearerSource(engine.sourcePlaces(req.clientIp), latitude, longitude),
    };
    recorder.recordCorrection(event);
    return json(202, { recorded: true, correction: event });
  }

  return (req) => {
    if (req.path !== PATH || req.method === 'OPTIONS') return undefined; // the API's preflight answers OPTIONS
    if (req.method !== 'POST') return methodNotAllowed('POST');
    return record(req);
  };
}
