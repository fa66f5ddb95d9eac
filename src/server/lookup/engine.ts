// Interface stub: the engine branch replaces this file wholesale.
import type { GpsLocation, LookupRequest, LookupResponse } from '../../lib/record.ts';
export interface LookupContext {
  headers?: { get(name: string): string | null };
  clientInfo?: LookupRequest['clientInfo'];
  browserLocation?: GpsLocation | null;
  webrtc?: { candidates: string[] } | null;
}
export interface Engine {
  lookup(ip: string, ctx?: LookupContext): LookupResponse;
  readonly sources: readonly string[];
}
export class InvalidIpError extends Error {}
export function createEngine(_options?: { geoipCityDb?: string; distDir?: string }): Promise<Engine> {
  throw new Error('engine not merged yet');
}
