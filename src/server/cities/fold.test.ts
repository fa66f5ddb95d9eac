import { describe, expect, it } from 'vitest';
import { foldName } from './fold.ts';

describe('foldName', () => {
  it.each([
    ['plain lower case stays', 'london', 'london'],
    ['case folds', 'LONDON', 'london'],
    ['accents go', 'São Paulo', 'sao paulo'],
    ['umlauts go, not spelled out', 'Zürich', 'zurich'],
    ['a precomposed and a combining accent fold alike', 'Mu\u0308nchen', 'munchen'],
    ['sharp s is spelled ss', 'Gießen', 'giessen'],
    ['ø, æ and å', 'Ærøskøbing Århus', 'aeroskobing arhus'],
    ['Polish ł', 'Łódź', 'lodz'],
    ['Turkish dotless ı', 'Diyarbakır', 'diyarbakir'],
    ['hyphens are word breaks', 'Saint-Étienne', 'saint etienne'],
    ['apostrophes are word breaks', "L'Aquila", 'l aquila'],
    ['runs of spaces and punctuation become one space', '  St.  Louis ,  MO ', 'st louis mo'],
    ['control characters are separators', 'new\u0000\u0007york', 'new york'],
    ['emoji are separators', 'par😀is', 'par is'],
    ['only symbols fold to nothing', '😀😀😀', ''],
    ['digits stay', 'Kreis 11', 'kreis 11'],
    ['full-width letters fold to ASCII', 'Ｔｏｋｙｏ', 'tokyo'],
    ['other scripts keep their letters', 'Москва', 'москва'],
  ])('%s: %j -> %j', (_, input, folded) => {
    expect(foldName(input)).toBe(folded);
  });
});
