import { describe, expect, it } from 'vitest';
import {
  accuracySentence, cityRadius, correctedSentence, sayRadius, sentenceRadius, CITY_DENSITY_PER_KM2, type AccuracyTemplates, type CorrectedTemplates, type SentenceRecord,
} from './accuracy-sentence.ts';
import text from '../../content/site/lookup-text.json' with { type: 'json' };

const T: AccuracyTemplates & CorrectedTemplates = text[0]!.badges.sentence;
const london: SentenceRecord = {
  accuracy_radius: 10_000, distance_consensus: 48, city: 'London', region: 'England', country_name: 'United Kingdom',
  accuracy_tier: 'low', location_source: 'ip', vpn_detected: false, reserved: null,
};

describe('accuracySentence', () => {
  it.each<[string, Partial<SentenceRecord>, string]>([
    ['disagreement (48 km) larger than the radius (10 km): the sentence says the larger', {}, 'Somewhere within about 50 km of London (our two databases disagree by 48 km)'],
    ['radius larger than the disagreement', { accuracy_radius: 25_000, distance_consensus: 12 }, 'Somewhere within about 25 km of London (our two databases disagree by 12 km)'],
    ['radius exactly the disagreement', { accuracy_radius: 20_000, distance_consensus: 20 }, 'Somewhere within about 20 km of London (our two databases disagree by 20 km)'],
    ['disagreement just past the radius rounds up, never down', { accuracy_radius: 20_000, distance_consensus: 20.2 }, 'Somewhere within about 25 km of London (our two databases disagree by 20 km)'],
    ['databases under 1 km apart agree', { accuracy_radius: 1000, distance_consensus: 0.4, accuracy_tier: 'high' }, 'Somewhere within about 1 km of London (our two databases agree)'],
    ['exactly 1 km apart is a disagreement', { accuracy_radius: 1000, distance_consensus: 1 }, 'Somewhere within about 1 km of London (our two databases disagree by 1 km)'],
    ['one database only: no clause', { accuracy_radius: 2000, distance_consensus: null, accuracy_tier: 'medium' }, 'Somewhere within about 2 km of London'],
    ['a GPS fix', { location_source: 'hybrid', accuracy_radius: 100, distance_consensus: null }, 'Within about 100 m of the marker, from your device\'s own location'],
    ['a GPS fix: the databases\' disagreement says nothing about it', { location_source: 'hybrid', accuracy_radius: 12, distance_consensus: 1550 }, 'Within about 100 m of the marker, from your device\'s own location'],
    ['only a country', { city: 'Unknown', region: 'Unknown', accuracy_tier: 'region', accuracy_radius: 100_000, distance_consensus: null }, 'Somewhere in United Kingdom: we cannot narrow it to a town'],
    ['a region but no city', { city: 'Unknown', accuracy_tier: 'region', distance_consensus: null }, 'Somewhere in England: we cannot narrow it to a town'],
    ['no city, whatever the tier says', { city: 'Unknown', accuracy_tier: 'low' }, 'Somewhere in England: we cannot narrow it to a town'],
    ['a city the tier calls only a region', { accuracy_tier: 'region' }, 'Somewhere in London: we cannot narrow it to a town'],
    ['nothing known', { city: 'Unknown', region: 'Unknown', country_name: 'Unknown', distance_consensus: null }, 'We cannot tell where this address is'],
    ['a VPN: the place is its exit\'s', { vpn_detected: true, distance_consensus: 3 }, 'This network comes out near London (within about 10 km); behind a VPN or relay that is not where you are'],
    ['a special-purpose address: no sentence', { reserved: 'Private network' }, ''],
  ])('%s', (_, change, sentence) => {
    expect(accuracySentence({ ...london, ...change }, T)).toBe(sentence);
  });
});

describe('sayRadius', () => {
  it.each([
    [1, '100 m'], [100, '100 m'], [101, '200 m'], [900, '900 m'], [901, '1 km'], [999, '1 km'], [1000, '1 km'], [1001, '2 km'], [10_000, '10 km'],
    [10_001, '15 km'], [48_000, '50 km'], [100_000, '100 km'], [100_001, '150 km'], [2_000_000, '2000 km'],
  ])('says %s m as %j', (m, said) => expect(sayRadius(m)).toBe(said));

  it('never says less than the disagreement, whatever the radius', () => {
    for (const [radius, km] of [[100, 0.3], [10_000, 48], [5000, 5.0001], [1000, 999.9]] as const) {
      const said = sayRadius(sentenceRadius({ accuracy_radius: radius, distance_consensus: km, location_source: 'ip' }));
      const saidKm = said.endsWith(' km') ? Number(said.slice(0, -3)) : Number(said.slice(0, -2)) / 1000;
      expect(saidKm).toBeGreaterThanOrEqual(km);
    }
  });
});

describe('cityRadius (how far a chosen city reaches, from its population)', () => {
  // The population whose disc at the density has exactly this radius (km).
  const peopleWithin = (km: number) => Math.PI * CITY_DENSITY_PER_KM2 * km * km;
  it.each<[string, number | null | undefined, number | null]>([
    ['unknown (not stored)', undefined, null],
    ['unknown (the fallback candidate)', null, null],
    ['no one', 0, null],
    ['a negative count is no count', -5, null],
    ['not a number', Number.NaN, null],
    ['a single person is still a place', 1, 1000],
    ['a hamlet reaches the 1 km floor', 40, 1000],
    ['exactly the floor', peopleWithin(1), 1000],
    ['just past the floor', peopleWithin(2), 2000],
    ["Munich's 1.26 million", 1_260_391, 11_564],
    ['exactly the 50 km ceiling', peopleWithin(50), 50_000],
    ['a metropolitan region stops at the ceiling', 40_000_000, 50_000],
  ])('%s: %s people give %s m', (_, population, metres) => {
    const radius = cityRadius(population);
    if (metres === null) expect(radius).toBeNull();
    else expect(radius).toBeCloseTo(metres, 0);
  });
});

describe('correctedSentence (after the visitor chose their city)', () => {
  it.each<[string, { city: string; verified: boolean; population?: number | null }, string]>([
    ['a city of known size: the reach is the city\'s', { city: 'Munich', verified: true, population: 1_260_391 }, 'In Munich, the city you chose (it reaches about 15 km from its centre)'],
    ['a small town: at least a kilometre', { city: 'Kleinhau', verified: true, population: 300 }, 'In Kleinhau, the city you chose (it reaches about 1 km from its centre)'],
    ['a correction stored before sizes were kept', { city: 'Munich', verified: true }, 'In Munich, the city you chose'],
    ['a size the place data does not know', { city: 'Munich', verified: true, population: null }, 'In Munich, the city you chose'],
    ['a name the city search could not check, whatever its size', { city: 'Ulm', verified: false, population: 120_000 },
      'In Ulm, as you named it: our city list could not check it, so the map still shows where your IP address points'],
  ])('%s', (_, correction, sentence) => expect(correctedSentence(correction, T)).toBe(sentence));

  it('never says the databases\' radius or disagreement', () => {
    expect(correctedSentence({ city: 'Munich', verified: true, population: 1_260_391 }, T)).not.toMatch(/databases/);
  });
});
