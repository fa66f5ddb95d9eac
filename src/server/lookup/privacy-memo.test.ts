import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ListCheck, PrivacyEvidence } from '../../lib/privacy.ts';
import { engineFrom, type Engine } from './engine.ts';
import { defaultListPaths, type PrivacyLists } from '../data/privacy-lists.ts';
import { PrivacyMemo } from './privacy-memo.ts';
import { openSources, type Sources } from '../data/sources.ts';

const MIN = 60_000;
const dir = mkdtempSync(path.join(tmpdir(), 'privacy-memo-'));
let sources: Sources;
let engine: Engine;

beforeAll(async () => {
  const paths = defaultListPaths(dir);
  mkdirSync(path.dirname(paths.tor));
  writeFileSync(paths.tor, '8.8.8.8\n');
  ({ sources } = await openSources({ lists: paths, listPollMs: 0 }));
  engine = engineFrom(sources);
}, 60_000);
afterAll(() => {
  sources.lists?.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('the engine with shared privacy verdicts', () => {
  it('gives two addresses of one network that no list holds the same frozen flags and VPN verdict', () => {
    const a = engine.lookup('1.1.1.1').data;
    const b = engine.lookup('1.0.0.1').data;
    expect(b.privacy).toBe(a.privacy);
    expect(b.vpn).toBe(a.vpn);
    expect(Object.isFrozen(a.privacy) && Object.isFrozen(a.privacy.reasons) && Object.isFrozen(a.vpn) && Object.isFrozen(a.vpn.reasons)).toBe(true);
    // The plain path builds equal ones, each its own.
    const plain = engineFrom(sources, { reuse: false });
    const [c, d] = [plain.lookup('1.1.1.1').data, plain.lookup('1.0.0.1').data];
    expect(c.privacy).toEqual(a.privacy);
    expect(c.vpn).toEqual(a.vpn);
    expect(d.privacy).not.toBe(c.privacy);
  });

  it('builds the flags afresh for an address a list holds', () => {
    const listed = engine.lookup('8.8.8.8').data;
    expect(listed.privacy).toMatchObject({ tor: true, service: 'Tor' });
    expect(engine.lookup('8.8.8.8').data.privacy).not.toBe(listed.privacy);
    expect(engine.lookup('8.8.4.4').data.privacy).toMatchObject({ tor: false, service: null });
  });

  it("judges the VPN verdict afresh when the browser's timezone is known, keeping the shared flags", () => {
    const shared = engine.lookup('1.1.1.1').data;
    const told = engine.lookup('1.1.1.1', { clientInfo: { timezone: 'Asia/Tokyo' } }).data;
    expect(told.privacy).toBe(shared.privacy);
    expect(told.vpn).not.toBe(shared.vpn);
    expect(told.vpn.indicators).toEqual(['Timezone mismatch', ...shared.vpn.indicators]);
  });
});

describe('PrivacyMemo', () => {
  const T0 = Date.parse('2026-11-27T12:00:00.000Z');
  /** Lists of one list, fetched at T0, that hold no address asked. */
  const lists = () => {
    const missed = { tor: { listed: false, service: '', updated: '2026-11-27', source: "the Tor Project's exit list", fetchedAt: T0 } satisfies ListCheck };
    return { generation: 0, missed: () => missed } as unknown as PrivacyLists & { generation: number };
  };
  const evidence = (l: PrivacyLists, now: number, org = 'Example Net'): PrivacyEvidence & { now: number } =>
    ({ lists: l.missed(), org, vpnBrand: false, hostingNetwork: null, networkData: true, now });

  // Asked first 12 min 5 s after the fetch: the words ("12 minutes ago") hold until 13 min.
  it.each<[string, number, boolean, string]>([
    ['the same millisecond', 12 * MIN + 5000, true, '12 minutes ago'],
    ['the last millisecond of the minute', 13 * MIN - 1, true, '12 minutes ago'],
    ['the first millisecond of the next', 13 * MIN, false, '13 minutes ago'],
    ['an hour on', 73 * MIN, false, '1 hour ago'],
    ['a millisecond before (a clock set back)', 12 * MIN + 4999, false, '12 minutes ago'],
    ['ten minutes before (a clock set back)', 2 * MIN + 5000, false, '2 minutes ago'],
  ])('asked again at %s (%d ms after the fetch), keeps the flags: %s', (_when, age, same, words) => {
    const l = lists();
    const memo = new PrivacyMemo(l);
    const first = memo.privacy(evidence(l, T0 + 12 * MIN + 5000), 7);
    const again = memo.privacy(evidence(l, T0 + age), 7);
    expect(again === first).toBe(same);
    expect(again.reasons.tor).toContain(`fetched ${words}`);
  });

  it('builds them again after a list changes (its generation), and keeps other networks apart', () => {
    const l = lists();
    const memo = new PrivacyMemo(l);
    const now = T0 + 5000;
    const first = memo.privacy(evidence(l, now), 7);
    expect(memo.privacy(evidence(l, now, 'Other Net'), 8)).not.toBe(first);
    expect(memo.privacy(evidence(l, now), 7)).toBe(first);
    l.generation++;
    expect(memo.privacy(evidence(l, now), 7)).not.toBe(first);
  });

  it('keeps a network apart by how it is typed as hosting, and no network (-1) apart from the first', () => {
    const l = lists();
    const memo = new PrivacyMemo(l);
    const now = T0 + 5000;
    const kinds = [null, 'asn', 'name'] as const;
    const built = [-1, 0].flatMap((network) => kinds.map((hostingNetwork) => memo.privacy({ ...evidence(l, now), hostingNetwork }, network)));
    expect(new Set(built).size).toBe(6);
    expect(built.map((p) => p.hosting)).toEqual([false, true, true, false, true, true]);
  });

  it('keeps at most its limit of networks, the oldest out first', () => {
    const l = lists();
    const memo = new PrivacyMemo(l, 2);
    const now = T0 + 5000;
    const first = memo.privacy(evidence(l, now), 1);
    memo.privacy(evidence(l, now), 2);
    expect(memo.privacy(evidence(l, now), 1)).toBe(first);
    memo.privacy(evidence(l, now), 3);
    expect(memo.privacy(evidence(l, now), 1)).not.toBe(first);
  });

  it('shares nothing for evidence of a listed address, and needs no lists to share', () => {
    const l = lists();
    const memo = new PrivacyMemo(l);
    const listed = { ...evidence(l, T0), lists: { tor: { ...l.missed().tor!, listed: true } } };
    expect(memo.privacy(listed, 7)).not.toBe(memo.privacy(listed, 7));
    const none = new PrivacyMemo(undefined);
    const e = { ...evidence(l, T0), lists: none.missed() };
    expect(none.privacy(e, 7)).toBe(none.privacy(e, 7));
    expect(none.privacy(e, 7).tor).toBeNull();
  });
});
