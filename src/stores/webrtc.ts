/**
 * `$webrtc`: the WebRTC leak check. After the page has loaded, gathers ICE candidates
 * for 2 s through the configured STUN server, sends them with POST /api/lookup (the
 * server scores them into the VPN verdict), and derives which ones leak: public and
 * different from the address the server saw (the same rule the server applies).
 */
import { atom, type StoreValue } from 'nanostores';
import { webrtcLeaks } from '../lib/webrtc-leak.ts';
import { $lookup, $lookupContext, updateLookupQuietly } from './lookup.ts';

export type WebrtcStatus = 'idle' | 'running' | 'done' | 'unsupported';

/** Spec section 9: the probe listens for 2000 ms. */
export const WEBRTC_WINDOW_MS = 2000;

/** The request schema takes at most 64 candidates. */
const MAX_CANDIDATES = 64;

export const $webrtc = atom<{ status: WebrtcStatus; candidates: string[] }>({ status: 'idle', candidates: [] });

/** Leaked addresses against the record now shown; null until the check is done. */
export function leaksOf(check: StoreValue<typeof $webrtc>, lookup: StoreValue<typeof $lookup>): string[] | null {
  return check.status === 'done' && lookup.data ? webrtcLeaks(check.candidates, lookup.data.data.ip) : null;
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

/** Runs the check once per page; call it after first paint. */
export async function startWebrtcCheck(stunUrl: string): Promise<void> {
  if ($webrtc.get().status !== 'idle') return;
  if (typeof RTCPeerConnection === 'undefined') return $webrtc.set({ status: 'unsupported', candidates: [] });
  $webrtc.set({ status: 'running', candidates: [] });
  let candidates: string[] = [];
  try {
    candidates = [...new Set(await gather(stunUrl))].slice(0, MAX_CANDIDATES);
  } catch {
    // A probe that cannot start (blocked by policy or an extension) leaks nothing: report no candidates.
  }
  $webrtc.set({ status: 'done', candidates });
  $lookupContext.setKey('webrtc', { candidates });
  await updateLookupQuietly();
}
