/**
 * `POST /api/corrections`: a visitor chose the city they are really in. The body carries
 * only that city's coordinates, `{ "latitude", "longitude" }`; the server looks up the
 * caller's own address (never one the body names) and records how far the IP-based place
 * was from the chosen city, the country and network type, and which city source was
 * nearer (src/lib/correction.ts), with the caller's voting unit (IPv4 /24, IPv6 /32) and
 * ASN (storage/event.ts). The address itself is never recorded, and with `Sec-GPC: 1` or
 * `DNT: 1` nothing is. One correction per unit and UTC day is kept, the first, and only
 * from a unit whose page lookup was recorded shortly before (storage/analytics.ts).
 *
 * The figures these feed are public, so only the site's own pages may post: a JSON body
 * (415 otherwise), and from a browser a same-origin context (`Sec-Fetch-Site`, 403 for any
 * other). No answer here carries CORS (its route row does not opt in: routes.ts; nor does
 * the handler's own answer), and the preflight grants nothing: another
 * site's page can neither send a JSON body here nor read an answer. Answers 202
 * `{ recorded: true, correction }`, or 200 `{ recorded: false, reason, message }` when the
 * request was fine but nothing is kept: `reason` is `declined` (GPC/DNT), `no_place`,
 * `duplicate` (the network already corrected today: 200, not 409, since the visitor did
 * nothing wrong and the page has nothing to retry), `no_lookup` or `unavailable`, and
 * `message` says it in words. A bad body is a 400 (tests/corrections-api.test.ts).
 */
import * as z from 'zod/mini';
import { haversineKm } from '../../lib/confidence.ts';
import type { CorrectionEvent, CorrectionRecorder, CorrectionVerdict } from '../../lib/correction.ts';
import { BodyTooLarge, describeIssue, json, jsonError, methodNotAllowed, readJson, type AppRequest, type AppResponse, type Handler } from '../http/handler.ts';
import { timedLookup } from '../lookup/timed-lookup.ts';
import { andThen } from '../utils/maybe-promise.ts';
import type { Engine, SourcePlace } from '../lookup/engine.ts';

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

type NotRecorded = 'declined' | 'no_place' | Exclude<CorrectionVerdict, { recorded: true }>['reason'];

const NOT_RECORDED: Record<NotRecorded, string> = {
  declined: 'Your browser asked not to be tracked (Sec-GPC or DNT), so nothing was recorded.',
  no_place: 'Your address has no IP-based place to compare with, so nothing was recorded.',
  duplicate: 'Your network has already sent a correction today; the first one of the day counts, so this one was not recorded.',
  no_lookup: 'A correction counts only after this site showed your network its place (a page load) within the last hour, so nothing was recorded.',
  unavailable: 'The server cannot take corrections right now, so nothing was recorded.',
};

const notRecorded = (reason: NotRecorded): AppResponse => json(200, { recorded: false, reason, message: NOT_RECORDED[reason] });

/** Whether a Content-Type names JSON (`application/json`, any parameters, any case). */
function isJsonType(contentType: string | null): boolean {
  return contentType?.split(';', 1)[0]!.trim().toLowerCase() === 'application/json';
}

/**
 * Why a request may not post a correction, or undefined when it may. A browser names the
 * context it posts from in `Sec-Fetch-Site`: anything but `same-origin` is another site's
 * page (or the address bar) and is refused. Browsers send that header only to secure origins,
 * so a request without it (a site served over plain HTTP, an older browser, a script) is let
 * through: the JSON rule below already keeps other sites' pages out, since a JSON body from
 * another origin needs a preflight this route never grants. A script can claim either
 * header; it is one unit's correction a day all the same, and one ASN's vote (storage/queries.ts).
 */
function refusal(headers: AppRequest['headers']): AppResponse | undefined {
  const site = headers.get('sec-fetch-site')?.trim().toLowerCase();
  if (site !== undefined && site !== 'same-origin') {
    return jsonError(403, 'forbidden', `Corrections are accepted only from this site's own pages; this request came with Sec-Fetch-Site: ${site.slice(0, 20)}.`);
  }
  if (!isJsonType(headers.get('content-type'))) {
    return jsonError(415, 'unsupported_media_type', 'Send the correction as JSON, with Content-Type: application/json.');
  }
  return undefined;
}

/** The answer to a preflight: 204 with what the route allows, and no access-control-allow-* (no other origin may post). */
const OPTIONS: AppResponse = { status: 204, headers: { allow: 'POST' } };

/** Same-origin only: no answer of this route is readable by another origin. */
const sameOriginOnly = (reply: AppResponse): AppResponse => ({ ...reply, cors: false });

/** Creates the handler; events go to `recorder` (the analytics store). */
export function createCorrectionsApi(engine: Engine, recorder: CorrectionRecorder): Handler {
  async function record(req: AppRequest): Promise<AppResponse> {
    const refused = refusal(req.headers);
    if (refused) return refused;
    // Answered here rather than by dispatch, so that this 413 too carries no CORS.
    const body = await readJson(req).catch((error: unknown) => {
      if (error instanceof BodyTooLarge) return jsonError(413, 'payload_too_large', 'A correction is two numbers: this body is larger than the server takes.');
      throw error;
    });
    if (!('value' in body)) return body;
    const parsed = CorrectionBodySchema.safeParse(body.value);
    if (!parsed.success) return jsonError(400, 'invalid_request', describeIssue(parsed.error));
    if (declinesTracking(req.headers)) return notRecorded('declined');
    const { latitude, longitude } = parsed.data;
    const address = req.clientAddress;
    const data = address && timedLookup(engine, req.clientIp)?.result.data;
    if (!address || !data || data.reserved || data.country_code === 'Unknown') {
      return notRecorded('no_place');
    }
    const event: CorrectionEvent = {
      distance_km: km(data.latitude, data.longitude, latitude, longitude),
      country_code: data.country_code,
      network_type: data.network_type,
      nearer_source: nearerSource(engine.sourcePlaces(req.clientIp), latitude, longitude),
    };
    const verdict = await recorder.recordCorrection(address, event, data.asn);
    return verdict.recorded ? json(202, { recorded: true, correction: event }) : notRecorded(verdict.reason);
  }

  const answer = (req: AppRequest): AppResponse | Promise<AppResponse> => {
    if (req.method === 'OPTIONS') return OPTIONS;
    if (req.method !== 'POST') return methodNotAllowed('POST');
    return record(req);
  };
  // Asked for its path only (its route row, routes.ts).
  return (req) => andThen(answer(req), sameOriginOnly);
}
