import { describe, expect, it } from 'vitest';
import { readdirSync, readFileSync } from 'node:fs';
import { foldName } from '../../server/cities/fold.ts';
import { citySlug } from './slug.ts';

describe('citySlug', () => {
  it.each([
    ['New York', 'new-york'],
    ['Los Angeles', 'los-angeles'],
    ['London', 'london'],
    ['São Paulo', 'sao-paulo'],
    ['Hong Kong', 'hong-kong'],
    ['St. Louis', 'st-louis'],
    ['Winston-Salem', 'winston-salem'],
    ['  Rio  de   Janeiro ', 'rio-de-janeiro'],
    ['Zürich', 'zurich'],
    ['Łódź', 'lodz'],
    ['Straße', 'strasse'],
    ['Ærøskøbing', 'aeroskobing'],
    ['Diyarbakır', 'diyarbakir'],
    ['Ｔｏｋｙｏ', 'tokyo'],
    ["L'Aquila", 'laquila'],
    ['Москва', ''],
  ])('turns %j into %j', (name, slug) => {
    expect(citySlug(name)).toBe(slug);
  });
});

describe('citySlug and the city search fold letters alike', () => {
  it.each(['Łódź', 'Straße', 'São Paulo', 'Ærøskøbing Århus', 'Þórshöfn', 'Đà Nẵng', 'Saint-Étienne'])('%s: the slug is the folded name, hyphenated', (name) => {
    expect(citySlug(name)).toBe(foldName(name).replaceAll(' ', '-'));
  });

  // The city pages already published: a change of the rule must not move any of them
  // (a slug that changes needs a 301 from the old one).
  it('keeps the slug of every city page', () => {
    const dir = new URL('../../../content/cities/', import.meta.url);
    const slugs = readdirSync(dir).filter((f) => f.endsWith('.json')).map((f) => f.slice(0, -'.json'.length)).sort();
    expect(slugs).toEqual([
      'berlin', 'chicago', 'dallas', 'dubai', 'hong-kong', 'houston', 'london', 'los-angeles', 'madrid', 'mumbai', 'new-york',
      'paris', 'philadelphia', 'phoenix', 'san-antonio', 'san-diego', 'san-jose', 'sao-paulo', 'singapore', 'sydney', 'tokyo', 'toronto',
    ]);
    for (const slug of slugs) {
      const { name } = JSON.parse(readFileSync(new URL(`${slug}.json`, dir), 'utf8')) as { name: string };
      expect(citySlug(name), name).toBe(slug);
    }
  });
});
