/**
 * Claims the content makes about the service and the world, held to their evidence: a
 * percentage about accuracy is one content/site/accuracy.json measured (no "99.8% accuracy"
 * in a page or in the editors' notes), every data credit links its licence, and a dated
 * fact on a city or ISP page names its source. What a stored row holds is checked apart,
 * against the row itself (tests/kept-fields.test.ts).
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import accuracy from '../content/site/accuracy.json' with { type: 'json' };
import credits from '../content/site/credits.json' with { type: 'json' };

const read = (file: string) => readFileSync(path.resolve(file), 'utf8');
function filesUnder(dir: string, ext: RegExp): string[] {
  return readdirSync(dir).flatMap((name) => {
    const file = path.join(dir, name);
    return statSync(file).isDirectory() ? filesUnder(file, ext) : ext.test(name) ? [file] : [];
  });
}

/** Every share accuracy.json holds, as the whole or one-decimal percentage a page would print. */
function measuredPercents(): Set<string> {
  const shares = accuracy.flatMap((f) => [...f.rows, ...f.cells].flatMap((r) => [r.insideRadius, 'countryRight' in r ? r.countryRight : null]));
  return new Set(shares.filter((s): s is number => s !== null).flatMap((s) => [String(Math.round(s * 100)), String(Math.round(s * 1000) / 10)]));
}

/** A percentage, with the sentence it stands in, when that sentence speaks of accuracy. */
function accuracyPercents(text: string): Array<{ percent: string; sentence: string }> {
  return text.split(/(?<=[.!?])\s+|\n/).flatMap((sentence) =>
    /accura|confiden|precis|correct|inside the radius|held the true/i.test(sentence)
      ? [...sentence.matchAll(/(\d+(?:\.\d+)?)\s?%/g)].map((m) => ({ percent: m[1]!, sentence: sentence.trim() }))
      : []);
}

const PAGES = [...filesUnder('content', /\.(json|mdx?|md)$/), ...filesUnder('src/components', /\.astro$/), ...filesUnder('src/pages', /\.astro$/)]
  .filter((f) => !f.endsWith(path.join('site', 'accuracy.json')));

describe('accuracy percentages', () => {
  it('finds the measured shares to compare with', () => expect(measuredPercents().size).toBeGreaterThan(5));

  it.each(PAGES)('%s states only accuracy percentages content/site/accuracy.json holds', (file) => {
    const measured = measuredPercents();
    const unsupported = accuracyPercents(read(file)).filter((p) => !measured.has(p.percent));
    expect(unsupported).toEqual([]);
  });

  it('catches an unmeasured figure', () => {
    expect(accuracyPercents('Our lookups are 99.8% accurate. Uptime is 99.9%.')).toEqual([{ percent: '99.8', sentence: 'Our lookups are 99.8% accurate.' }]);
  });
});

describe('data credits (content/site/credits.json: the footer and /trust#credits)', () => {
  it.each(credits.map((c) => [c.id, c] as const))('%s links its source and its licence', (_, c) => {
    expect(new URL(c.href).protocol).toBe('https:');
    expect(new URL(c.licence.href).protocol).toBe('https:');
    expect(c.licence.name).not.toBe('');
  });

  it('credits every source the lookup, the city search, the map and the privacy lists use', () => {
    expect(credits.map((c) => c.id)).toEqual(expect.arrayContaining(['dbip', 'geolite2', 'routeviews', 'nro', 'ip-location-db', 'geonames',
      'openstreetmap', 'tor', 'private-relay', 'x4bnet', 'aws', 'google-cloud', 'oracle', 'cloudflare', 'digitalocean']));
  });

  it('links the CC BY licence itself for every CC BY source, and says how its data was modified where we or a compiler changed it', () => {
    const ccBy = credits.filter((c) => /CC BY/.test(c.licence.name) && !c.licence.name.includes(';'));
    expect(ccBy.map((c) => c.id).sort()).toEqual(['dbip', 'geonames', 'nro', 'routeviews']);
    for (const c of ccBy) {
      expect(c.licence.href, c.id).toBe('https://creativecommons.org/licenses/by/4.0/');
      expect('modified' in c && c.modified, `${c.id} says nothing of its changes`).toBeTruthy();
    }
  });

  it("names GeoLite2's terms and links them", () => {
    const geolite2 = credits.find((c) => c.id === 'geolite2')!;
    expect(geolite2.licence).toEqual({ name: 'GeoLite2 End User License Agreement', href: 'https://www.maxmind.com/en/geolite2/eula' });
  });
});
