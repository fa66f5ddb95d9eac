/**
 * `$webrtc`: the WebRTC leak check. After the page has loaded, gathers ICE candidates
 * for 2 s through the STUN server (this server's own responder unless the operator named
 * another), sends them with POST /api/lookup, and reads back how the server classified
 * each public address (src/lib/webrtc-leak.ts: the visitor's other address, another of
 * their network's, or a leak). The classification needs the ASN data, so only the
 * server makes it; the browser shows it.
 */
import { atom, type StoreValue } from 'nanostores';
import type { WebrtcAddress } from '../lib/record.ts';
import { webrtcLeaks } from '../lib/webrtc-leak.ts';
import { $lookup, $lookupContext, updateLookupQuietly } from './lookup.ts';

/**
 * `off`: no STUN server to ask; `running`: gathering and waiting for the server's answer;
 * `done`: the answer came (or the request failed: then the record has no classification).
 */
export type WebrtcStatus = 'idle' | 'running' | 'done' | 'unsupported' | 'off';

/** The probe listens for 2000 ms. */
export const WEBRTC_WINDOW_MS = 2000;

/** The request schema takes at most 64 candidates. */
const MAX_CANDIDATES = 64;

export const $webrtc = atom<{ status: WebrtcStatus; candidates: string[] }>({ status: 'idle', candidates: [] });

/** What the check found, grouped the way the card shows it. */
export interface WebrtcReport {
  /** Addresses of another network: the leaks the VPN score counts. */
  leaks: string[];
  /** The visitor's address of the other IP version, on the same network. */
  otherFamily: WebrtcAddress[];
  /** Other addresses of the visitor's own network, same IP version (e.g. IPv6 privacy addresses). */
  sameNetwork: string[];
}

/**
 * The report for the record now shown: null until the check is done, `unchecked` when it
 * is done but the record carries no classification (the server could not be reached).
 */
export function webrtcReportOf(check: StoreValue<typeof $webrtc>, lookup: StoreValue<typeof $lookup>): WebrtcReport | 'unchecked' | null {
  if (check.status !== 'done') return null;
  const addresses = lookup.data?.webrtc;
  if (!addresses) return 'unchecked';
  return {
    leaks: webrtcLeaks(addresses),
    otherFamily: addresses.filter((a) => a.kind === 'other-family'),
    sameNetwork: addresses.filter((a) => a.kind === 'same-network').map((a) => a.ip),
  };
}

/** Collects candidate lines until gathering completes or the window closes. */
async function gather(stunUrl: string): Promise<string[]> {
  const pc = new RTCPeerConnection({ iceServers: [{ urls: stunUrl }] });
  const lines: string[] = [];
  try {
    const done = new Promise<void>((resolve) => {
      const timer = setTimeout(resolve, WEBRTC_WINDOW_MS);
      pc.onicecandidate = (event) => {
        if (event.candidate) lines.push(event.candidate.candidate);
        else { clearTimeout(timer); resolve(); }
      };
    });
    pc.createDataChannel('probe');
    await pc.setLocalDescription(await pc.createOffer());
    await done;
  } finally {
    pc.close();
  }
  return lines;
}

/** Runs the check once per page; call it after first paint. `stunUrl` null: nothing to ask. */
export async function startWebrtcCheck(stunUrl: string | null): Promise<void> {
  if ($webrtc.get().status !== 'idle') return;
  if (typeof RTCPeerConnection === 'undefined') return $webrtc.set({ status: 'unsupported', candidates: [] });
  if (!stunUrl) return $webrtc.set({ status: 'off', candidates: [] });
  $webrtc.set({ status: 'running', candidates: [] });
  let candidates: string[] = [];
  try {
    candidates = [...new Set(await gather(stunUrl))].slice(0, MAX_CANDIDATES);
  } catch {
    // A probe that cannot start (blocked by policy or an extension) leaks nothing: report no candidates.
  }
  $lookupContext.setKey('webrtc', { candidates });
  await updateLookupQuietly();
  $webrtc.set({ status: 'done', candidates });
}
