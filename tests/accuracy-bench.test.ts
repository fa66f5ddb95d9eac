// The accuracy bench (bench/accuracy.ts) on the real databases and the shipped ground truth:
// its split is fixed, and what the repository holds (the fitted model, the figures /trust
// shows) is exactly what the bench produces now, not numbers typed by hand.
import { readFileSync } from 'node:fs';
import { beforeAll, describe, expect, it } from 'vitest';
import { engineFrom } from '../src/server/lookup/engine.ts';
import { openSources, type Sources } from '../src/server/data/sources.ts';
import { bigCityEntries, fitModel, markBigCities, renderModel } from '../bench/accuracy/fit.ts';
import { halfOf, loadGroundTruth, observe, quantile, type Observation } from '../bench/accuracy/ground-truth.ts';
import { measure, type AccuracyFigures } from '../bench/accuracy/measure.ts';

describe('the split of the ground truth', () => {
  it.each([
    // First rows of bench/ground-truth/ripe-atlas-probes-2023.json: pinned, so a change to the split shows.
    ['82.217.219.124', 'fit'], ['83.81.82.33', 'report'], ['95.247.234.173', 'fit'], ['193.0.0.78', 'report'],
    ['86.89.224.211', 'fit'], ['76.82.152.84', 'fit'],
  ] as const)('puts %s in the %s half, always', (ip, half) => {
    expect(halfOf(ip)).toBe(half);
    expect(halfOf(ip)).toBe(half);
  });

  it('splits the 5,088 probes into two halves of fixed size, whatever their order', () => {
    const probes = loadGroundTruth();
    const fit = (list: typeof probes) => list.filter((p) => halfOf(p.ip) === 'fit').map((p) => p.probe_id).sort((a, b) => a - b);
    expect(probes).toHaveLength(5088);
    expect(fit(probes)).toHaveLength(2502);
    expect(fit([...probes].reverse())).toEqual(fit(probes));
  });
});

describe('quantile', () => {
  it.each([
    [[1, 2, 3, 4], 0.5, 2], [[1, 2, 3, 4], 0.51, 3], [[4, 1, 3, 2], 1, 4], [[5], 0.1, 5], [[1, 2, 3], 0, 1], [[], 0.5, NaN],
  ])('of %j at %d is %d (the smallest value with that share at or below it)', (values, p, q) => expect(quantile(values, p)).toBe(q));
});

describe('what the repository holds is what the bench produces', () => {
  let sources: Sources;
  let observations: Observation[];
  beforeAll(async () => {
    ({ sources } = await openSources());
    observations = observe(sources, loadGroundTruth());
  }, 60_000);

  it('content/site/accuracy.json (the figures on /trust) is what `npm run bench:accuracy` measures now', () => {
    const [stored] = JSON.parse(readFileSync('content/site/accuracy.json', 'utf8')) as AccuracyFigures[];
    const report = observations.filter((o) => halfOf(o.probe.ip) === 'report');
    const fresh = measure(engineFrom(sources), report, [sources.primary!.name, sources.second!.name], {
      measuredOn: stored!.measuredOn, command: 'npm run bench:accuracy', probes: observations.length, fitProbes: observations.length - report.length,
    });
    expect(stored).toEqual(fresh);
  }, 60_000);

  it('src/lib/accuracy-model.ts is what `npm run bench:accuracy -- --fit` fits now', () => {
    const stored = readFileSync('src/lib/accuracy-model.ts', 'utf8');
    const fittedOn = /on (\d{4}-\d{2}-\d{2}), from the/.exec(stored)?.[1] ?? 'no date in the file';
    const fit = observations.filter((o) => halfOf(o.probe.ip) === 'fit').map((o) => structuredClone(o));
    markBigCities(fit, bigCityEntries());
    expect(stored).toBe(renderModel(fitModel(fit), fittedOn, 'npm run bench:accuracy -- --fit'));
  }, 60_000);
});
