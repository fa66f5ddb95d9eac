/** startWebrtcCheck against a stand-in RTCPeerConnection and fetch: what it gathers, sends and ends in. */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { stubFetch } from '../../tests/support/fetch-stub.ts';
import { lookupResponse } from '../../tests/support/lookup-response.ts';

afterEach(() => { vi.unstubAllGlobals(); vi.useRealTimers(); });

/** A peer connection that reports `lines` then the end of gathering (unless `endless`), or throws on offer. */
function fakePeer(lines: string[], { endless = false, broken = false } = {}) {
  const made: { config: RTCConfiguration; closed: boolean }[] = [];
  class FakePeer {
    onicecandidate: ((event: { candidate: { candidate: string } | null }) => void) | null = null;
    readonly record: { config: RTCConfiguration; closed: boolean };
    constructor(config: RTCConfiguration) { this.record = { config, closed: false }; made.push(this.record); }
    createDataChannel() { return {}; }
    async createOffer() { if (broken) throw new Error('blocked'); return { type: 'offer', sdp: '' }; }
    async setLocalDescription() {
      setTimeout(() => {
        for (const candidate of lines) this.onicecandidate?.({ candidate: { candidate } });
        if (!endless) this.onicecandidate?.({ candidate: null });
      }, 0);
    }
    close() { this.record.closed = true; }
  }
  vi.stubGlobal('RTCPeerConnection', FakePeer);
  return made;
}

async function fresh() {
  vi.stubGlobal('location', new URL('http://localhost/'));
  const fetch = stubFetch();
  vi.resetModules();
  return { fetch, ...(await import('./webrtc.ts')), ...(await import('./lookup.ts')) };
}

/** Answers the quiet lookup the check sends and returns what it carried. */
async function answerQuietLookup(fetch: ReturnType<typeof stubFetch>) {
  const request = await fetch.request((url) => url.endsWith('/api/lookup'));
  request.answer(Response.json(lookupResponse('192.0.2.1')));
  return JSON.parse(String(request.init?.body)) as { webrtc: { candidates: string[] } };
}

describe('startWebrtcCheck', () => {
  it('is unsupported without RTCPeerConnection, and off without a STUN server, asking nothing', async () => {
    const { $webrtc, startWebrtcCheck, fetch } = await fresh();
    expect($webrtc.get()).toEqual({ status: 'idle', candidates: [] });
    await startWebrtcCheck('stun:x:3478');
    expect($webrtc.get()).toEqual({ status: 'unsupported', candidates: [] });
    fakePeer([]);
    const again = await fresh();
    await again.startWebrtcCheck(null);
    expect(again.$webrtc.get()).toEqual({ status: 'off', candidates: [] });
    expect([...fetch.requests, ...again.fetch.requests]).toEqual([]);
  });

  it('gathers through the STUN server, sends each candidate once, and is done once the server answered', async () => {
    const made = fakePeer(['candidate:1 1 udp 1 198.51.100.7 5000 typ srflx', 'candidate:2 1 udp 1 192.168.1.2 5001 typ host', 'candidate:1 1 udp 1 198.51.100.7 5000 typ srflx']);
    const { $webrtc, startWebrtcCheck, fetch, $lookupContext } = await fresh();
    const check = startWebrtcCheck('stun:stun.example:3478');
    expect($webrtc.get()).toEqual({ status: 'running', candidates: [] });
    const body = await answerQuietLookup(fetch);
    await check;
    const candidates = ['candidate:1 1 udp 1 198.51.100.7 5000 typ srflx', 'candidate:2 1 udp 1 192.168.1.2 5001 typ host'];
    expect(body.webrtc.candidates).toEqual(candidates);
    expect($lookupContext.get().webrtc).toEqual({ candidates });
    expect($webrtc.get()).toEqual({ status: 'done', candidates });
    expect(made).toEqual([{ config: { iceServers: [{ urls: 'stun:stun.example:3478' }] }, closed: true }]);
    // Once per page.
    await startWebrtcCheck('stun:stun.example:3478');
    expect(made).toHaveLength(1);
  });

  it('sends at most 64 candidates', async () => {
    fakePeer(Array.from({ length: 70 }, (_, i) => `candidate:${i} 1 udp 1 10.0.0.${i} 5000 typ host`));
    const { startWebrtcCheck, fetch } = await fresh();
    const check = startWebrtcCheck('stun:x:1');
    expect((await answerQuietLookup(fetch)).webrtc.candidates).toHaveLength(64);
    await check;
  });

  it('stops listening after 2 s when gathering never ends', async () => {
    vi.useFakeTimers();
    const made = fakePeer(['candidate:1 1 udp 1 10.0.0.1 5000 typ host'], { endless: true });
    const { startWebrtcCheck, fetch, WEBRTC_WINDOW_MS } = await fresh();
    const check = startWebrtcCheck('stun:x:1');
    await vi.advanceTimersByTimeAsync(WEBRTC_WINDOW_MS - 1);
    expect(fetch.requests).toEqual([]);
    await vi.advanceTimersByTimeAsync(1);
    vi.useRealTimers();
    expect((await answerQuietLookup(fetch)).webrtc.candidates).toEqual(['candidate:1 1 udp 1 10.0.0.1 5000 typ host']);
    await check;
    expect(made[0]!.closed).toBe(true);
    expect(WEBRTC_WINDOW_MS).toBe(2000);
  });

  it('reports no candidates when the probe cannot start', async () => {
    const made = fakePeer([], { broken: true });
    const { $webrtc, startWebrtcCheck, fetch } = await fresh();
    const check = startWebrtcCheck('stun:x:1');
    expect((await answerQuietLookup(fetch)).webrtc.candidates).toEqual([]);
    await check;
    expect($webrtc.get()).toEqual({ status: 'done', candidates: [] });
    expect(made[0]!.closed).toBe(true);
  });
});
