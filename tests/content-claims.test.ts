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
import listSources from '../content/site/list-sources.json' with { type: 'json' };

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

  it('has an entry for every list the server fetches, whose licence /trust shows with the list (one licence link per source)', () => {
    const ids = new Set(credits.map((c) => c.id));
    for (const source of listSources) expect(ids, `${source.id} credits "${source.credit}"`).toContain(source.credit);
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

describe('dated facts on city and ISP pages', () => {
  interface Landing { intro?: string; description?: string; customers?: string; coverage?: string; maxSpeed?: string; tips?: string[]; privacyNotes?: string[]; sources?: Array<{ date: string }> }
  const files = ['cities', 'isps'].flatMap((dir) => readdirSync(path.join('content', dir)).filter((f) => f.endsWith('.json')).map((f) => `content/${dir}/${f}`));

  /** Each sentence that names a year, with the latest year it names: the one its source must be as recent as. */
  function datedSentences(page: Landing): Array<{ year: number; sentence: string }> {
    const texts = [page.intro, page.description, page.customers, page.coverage, page.maxSpeed, ...(page.tips ?? []), ...(page.privacyNotes ?? [])];
    return texts.filter((t): t is string => !!t).flatMap((t) => t.split(/(?<=\.)\s+/)).flatMap((sentence) => {
      const years = [...sentence.matchAll(/\b(?:19|20)\d\d\b/g)].map((m) => Number(m[0]));
      return years.length ? [{ year: Math.max(...years), sentence }] : [];
    });
  }

  it.each(files)('%s gives each dated fact a source from that year or the two after it', (file) => {
    const page = JSON.parse(read(file)) as Landing;
    const sourceYears = (page.sources ?? []).map((s) => Number(s.date.slice(0, 4)));
    const unsourced = datedSentences(page).filter(({ year }) => !sourceYears.some((y) => y >= year && y <= year + 2));
    expect(unsourced).toEqual([]);
  });

  it.each([['content/site/offers.json', ['description', 'features']], ['content/site/vpn-comparison.json', ['noLogsAudit']]] as const)(
    '%s gives each dated VPN claim (audits, subpoenas, breaches) a source from that year or the two after it', (file, fields) => {
      const items = JSON.parse(read(file)) as Array<Record<string, unknown> & { id: string; source?: { date: string } }>;
      for (const item of items) {
        const claims = fields.flatMap((field) => ([] as string[]).concat(item[field] as string | string[]));
        const sourceYear = item.source ? Number(item.source.date.slice(0, 4)) : undefined;
        const unsourced = datedSentences({ tips: claims }).filter(({ year }) => sourceYear === undefined || sourceYear < year || sourceYear > year + 2);
        expect(unsourced, item.id).toEqual([]);
      }
    });

  it('reads the latest year of a sentence', () => {
    expect(datedSentences({ intro: 'From 2013 to 2016 it cost more. It has no date.' })).toEqual([{ year: 2016, sentence: 'From 2013 to 2016 it cost more.' }]);
  });
});
