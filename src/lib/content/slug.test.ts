import { describe, expect, it } from 'vitest';
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
  ])('turns %j into %j', (name, slug) => {
    expect(citySlug(name)).toBe(slug);
  });
});
