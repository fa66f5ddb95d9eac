import { describe, expect, it } from 'vitest';
import { cellId, measuredCellId, measuredPercent, type MeasuredCell } from './measured-share.ts';
import { TIER_MAX_KM } from './accuracy.ts';
import accuracy from '../../content/site/accuracy.json' with { type: 'json' };

type Evidence = Parameters<typeof measuredCellId>[0];
const record = (over: Partial<Evidence>): Evidence => ({
  reserved: null, location_source: 'ip', distance_consensus: null, city: 'Berlin', accuracy_radius: 176_000, ...over,
});

describe('cellId', () => {
  it.each([
    [0, 'within-5-km'], [1, 'within-20-km'], [2, 'within-50-km'], [3, 'within-200-km'], [4, 'beyond-200-km'],
    ['oneBigCity', 'one-big-city'], ['oneCity', 'one-city'], ['country', 'country'], ['unknown', 'unknown'],
  ] as const)('names row %j %s', (cell, id) => expect(cellId(cell)).toBe(id));
});

describe('measuredCellId', () => {
  it.each([
    ['sources 0 km apart', { distance_consensus: 0 }, 'within-5-km'],
    ['sources exactly 5 km apart', { distance_consensus: 5 }, 'within-5-km'],
    ['sources 5.1 km apart', { distance_consensus: 5.1 }, 'within-20-km'],
    ['sources exactly 20 km apart', { distance_consensus: 20 }, 'within-20-km'],
    ['sources exactly 50 km apart', { distance_consensus: 50 }, 'within-50-km'],
    ['sources exactly 200 km apart', { distance_consensus: 200 }, 'within-200-km'],
    ['sources 200.1 km apart', { distance_consensus: 200.1 }, 'beyond-200-km'],
    ['one source, a radius just under the small city\'s', { accuracy_radius: 175_999 }, 'one-big-city'],
    ['one source, the big city\'s radius', { accuracy_radius: 18_000 }, 'one-big-city'],
    ['one source, exactly the small city\'s radius', { accuracy_radius: 176_000 }, 'one-city'],
    ['one source, a wider radius', { accuracy_radius: 500_000 }, 'one-city'],
    ['only a country (no city)', { city: '' }, null],
    ['only a country (city Unknown)', { city: 'Unknown', accuracy_radius: 383_000 }, null],
    ['a GPS fix', { location_source: 'hybrid', distance_consensus: 3 }, null],
    ['a special-purpose address', { reserved: 'Loopback', distance_consensus: 3 }, null],
    ['a cached record', { location_source: 'cached', distance_consensus: 3 }, 'within-5-km'],
  ] as const)('puts %s in %j', (_, over, id) => expect(measuredCellId(record(over))).toBe(id));

  it('never names a row the bench does not measure, for any radius up to the tiers\' edges', () => {
    const measured = new Set(accuracy[0]!.cells.map((c) => c.id));
    for (const over of [{ distance_consensus: 0 }, { distance_consensus: 30 }, { distance_consensus: 900 },
      { accuracy_radius: TIER_MAX_KM.high * 1000 }, { accuracy_radius: TIER_MAX_KM.medium * 1000 }]) {
      expect(measured).toContain(measuredCellId(record(over)));
    }
  });
});

describe('measuredPercent', () => {
  const cells: MeasuredCell[] = [{ id: 'within-5-km', insideRadius: 0.703 }, { id: 'one-city', insideRadius: 0.685 }, { id: 'within-20-km', insideRadius: null }];
  it.each([
    ['a measured row', { distance_consensus: 1 }, 70],
    ['a share rounded half up', { accuracy_radius: 200_000 }, 69],
    ['a row measured without a share', { distance_consensus: 10 }, null],
    ['a row the figures lack', { distance_consensus: 100 }, null],
    ['a record in no row', { location_source: 'hybrid' }, null],
  ] as const)('gives %s as %j', (_, over, percent) => expect(measuredPercent(record(over), cells)).toBe(percent));

  it("reads the visitor's row from content/site/accuracy.json", () => {
    expect(measuredPercent(record({ distance_consensus: 1 }), accuracy[0]!.cells)).toBe(Math.round(accuracy[0]!.cells[0]!.insideRadius * 100));
  });
});
