import { describe, expect, it, vi } from 'vitest';
import type { Privacy } from './record.ts';
import { OFFERS_SHOWN, offersFor, panelKind, panelUrgency, type PanelKind } from './vpn-panel.ts';

const rec = (vpn_detected: boolean, risk_level: 'low' | 'medium' | 'high', country_code = 'US') => ({ vpn_detected, risk_level, country_code });

describe('panelKind (first match wins)', () => {
  const clean: Privacy = { vpn: false, proxy: false, tor: false, relay: false, hosting: false, service: null, reasons: { vpn: '', proxy: '', tor: '', relay: '', hosting: '' } };
  const unchecked: Privacy = { ...clean, vpn: null, proxy: null, tor: null, relay: null, hosting: null };
  it.each<[string, Partial<Privacy>, boolean, PanelKind]>([
    ['a Tor exit, whatever else is listed', { tor: true, relay: true, vpn: true, proxy: true, hosting: true }, true, 'tor'],
    ['a Private Relay egress on a hosting network', { relay: true, hosting: true }, true, 'relay'],
    ['a listed VPN on a hosting network, also an open proxy', { vpn: true, proxy: true, hosting: true }, true, 'vpn'],
    ['an open proxy on a hosting network', { proxy: true, hosting: true }, true, 'proxy'],
    ['a hosting network with another sign (a verdict)', { hosting: true }, true, 'hosting'],
    ['a hosting network alone (no verdict)', { hosting: true }, false, 'hosting'],
    ['no list names it, but the signs do', {}, true, 'suspected'],
    ['nothing', {}, false, 'none'],
  ])('%s: %s', (_, flags, vpn_detected, kind) => {
    expect(panelKind({ privacy: { ...clean, ...flags }, vpn_detected })).toBe(kind);
  });
  it('reads a list that is not loaded (null) as not listed', () => {
    expect(panelKind({ privacy: unchecked, vpn_detected: false })).toBe('none');
    expect(panelKind({ privacy: unchecked, vpn_detected: true })).toBe('suspected');
  });
});

describe('OFFERS_SHOWN (where a VPN is sound advice)', () => {
  it.each<[PanelKind, boolean]>([
    ['none', true], ['relay', true], ['proxy', true],
    ['tor', false], ['vpn', false], ['hosting', false], ['suspected', false],
  ])('%s: %s', async (kind, shown) => {
    expect(OFFERS_SHOWN[kind]).toBe(shown);
    // The table is built when the module loads: a fresh copy, so a wrong entry fails here.
    vi.resetModules();
    const fresh = await import('./vpn-panel.ts');
    expect(fresh.OFFERS_SHOWN[kind]).toBe(shown);
  });
});

describe('panelUrgency (nothing detected)', () => {
  it.each([
    [rec(false, 'high'), 'high', 'highRisk'],
    [rec(false, 'medium'), 'medium', 'moderateRisk'],
    [rec(false, 'low'), 'low', 'protect'],
  ] as const)('gives %j urgency %s and headline %s', (record, urgency, headline) =>
    expect(panelUrgency(record)).toEqual({ urgency, headline }));
});

describe('offerCategory', () => {
  it.each([
    [rec(true, 'high', 'CN'), 'privacy'],
    [rec(true, 'low', 'TR'), 'privacy'],
    ...['CN', 'RU', 'IR', 'KP', 'SA', 'AE', 'SG'].map((c) => [rec(false, 'low', c), 'security'] as const),
    [rec(false, 'low', 'sg'), 'security'],
    [rec(false, 'low', 'TR'), 'streaming'],
    [rec(false, 'medium', 'EG'), 'streaming'],
    [rec(false, 'low', 'US'), 'privacy'],
    [rec(false, 'low', 'DE'), 'privacy'],
    [rec(false, 'low', 'Unknown'), 'privacy'],
    // No country at all is no streaming country either.
    [rec(false, 'low', ''), 'privacy'],
  ] as const)('picks for %j the %s offers', async (record, category) => {
    // A fresh copy: the country lists are built when the module loads, and mutation testing
    // counts them as tested only by the tests that load it.
    vi.resetModules();
    const fresh = await import('./vpn-panel.ts');
    expect(fresh.offerCategory(record)).toBe(category);
  });
});

describe('offersFor', () => {
  const offers = [
    { id: 'b', category: 'security', order: 2 },
    { id: 'x', category: 'privacy', order: 1 },
    { id: 'a', category: 'security', order: 1 },
  ] as const;
  it('keeps the category in editorial order and labels only the first as recommended', () => {
    expect(offersFor(offers, 'security').map((o) => [o.id, o.recommended])).toEqual([['a', true], ['b', false]]);
  });
  it('returns nothing for a category without offers', () => expect(offersFor(offers, 'streaming')).toEqual([]));
});

describe('the panel copy in content', () => {
  it('words each headline of an address where nothing was detected exactly as the spec does', async () => {
    const [entry] = (await import('../../content/site/lookup-text.json')).default;
    expect(entry!.vpnPanel.headlines).toEqual({
      highRisk: 'High Risk Location Detected',
      moderateRisk: 'Moderate Privacy Risk',
      protect: 'Protect Your Privacy',
    });
    expect(entry!.vpnPanel.recommended).toBe('RECOMMENDED');
  });

  it('tells a Tor or Private Relay visitor what was detected, and sells a VPN only where it says why', async () => {
    const [entry] = (await import('../../content/site/lookup-text.json')).default;
    const { kinds } = entry!.vpnPanel;
    expect(kinds.tor.headline).toMatch(/Tor/);
    expect(kinds.tor.advice).toMatch(/^No VPN needed/);
    expect(kinds.relay.headline).toMatch(/Private Relay/);
    expect(kinds.vpn.advice).toMatch(/^No second VPN needed/);
    for (const kind of ['relay', 'proxy'] as const) expect(kinds[kind].advice, kind).toMatch(/VPN .*(only if|better tool)/);
    for (const text of Object.values(kinds).flatMap((k) => Object.values(k))) expect(text).not.toMatch(/upgrade/i);
  });

  it.each([
    [rec(false, 'high'), 'High'],
    [rec(false, 'medium'), 'Medium'],
    [rec(false, 'low'), 'Low'],
  ] as const)('keeps the urgency label for %j and says why beside it, starting with its level (%s)', async (record, level) => {
    const [entry] = (await import('../../content/site/lookup-text.json')).default;
    const { urgency, headline } = panelUrgency(record);
    expect(entry!.vpnPanel.urgencyLabels[urgency]).toBe(`${level} urgency`);
    expect(entry!.vpnPanel.urgencyReasons[headline]).toMatch(new RegExp(`^${level}, because `));
  });

  it('has two offers in each category, so every category shows a recommended one and an alternative', async () => {
    const offers = (await import('../../content/site/offers.json')).default as Array<{ category: 'security' | 'streaming' | 'privacy'; order: number }>;
    for (const category of ['security', 'streaming', 'privacy'] as const) {
      expect(offersFor(offers, category).map((o) => o.recommended)).toEqual([true, false]);
    }
  });

  it('states no price, rating or server count, and names a dated source beside every audit claim', async () => {
    type Offer = { name: string; description: string; features: string[]; source?: { date: string } };
    const offers = (await import('../../content/site/offers.json')).default as Offer[];
    for (const offer of offers) {
      const text = [offer.description, ...offer.features].join(' | ');
      expect(offer).not.toHaveProperty('pricePerMonth');
      expect(offer).not.toHaveProperty('rating');
      expect(text, offer.name).not.toMatch(/[$€£]|\/mo(nth)?\b|out of 5|\bstars?\b/i);
      expect(text, offer.name).not.toMatch(/\d[\d,]*\+?\s+(servers|countries|locations)/i);
      if (/audit/i.test(text)) expect(offer.source?.date, `${offer.name} names an audit`).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    }
  });
});
