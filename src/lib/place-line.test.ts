import { expect, it } from 'vitest';
import { placeLine } from './place-line.ts';

it.each([
  [{ city: 'Paris', region: 'Île-de-France', country_name: 'France' }, 'Paris, Île-de-France, France'],
  [{ city: 'Unknown', region: 'Unknown', country_name: 'Germany' }, 'Germany'],
  [{ city: 'Singapore', region: 'Singapore', country_name: 'Singapore' }, 'Singapore'],
  [{ city: 'Unknown', region: 'Unknown', country_name: 'Unknown' }, ''],
])('writes %j as %j', (record, line) => expect(placeLine(record)).toBe(line));
