import { describe, expect, it } from 'vitest';
import { asksForCsv, csvCell, csvDocument, csvRow } from './csv.ts';

describe('csvCell', () => {
  it.each<[string, unknown, string]>([
    ['plain text as it is', 'Mountain View', 'Mountain View'],
    ['an empty string as nothing', '', ''],
    ['null as nothing', null, ''],
    ['undefined as nothing', undefined, ''],
    ['true as text', true, 'true'],
    ['a comma in double quotes', 'Google, LLC', '"Google, LLC"'],
    ['a double quote doubled, in double quotes', 'say "hi"', '"say ""hi"""'],
    ['a line feed in double quotes', 'a\nb', '"a\nb"'],
    ['a carriage return inside text in double quotes', 'a\rb', '"a\rb"'],
    // The formula guard: one row per character a spreadsheet would run.
    ['text starting with = as text', '=1+1', "'=1+1"],
    ['text starting with + as text', '+1+1', "'+1+1"],
    ['text starting with - as text', '-1+1', "'-1+1"],
    ['text starting with @ as text', '@SUM(A1)', "'@SUM(A1)"],
    ['text starting with a tab as text', '\t=1', "'\t=1"],
    ['text starting with a carriage return as text, in double quotes', '\r=1', `"'\r=1"`],
    ['text starting with NUL as text', '\0=1', "'\0=1"],
    ['a formula with a comma, guarded and quoted', '=HYPERLINK("x","y")', `"'=HYPERLINK(""x"",""y"")"`],
    ['text with = later on as it is', 'a=b', 'a=b'],
    ['text that looks like a negative number as text', '-97.822', "'-97.822"],
    // A number is a number.
    ['a negative number as a number', -97.822, '-97.822'],
    ['a positive number as a number', 37.751, '37.751'],
    ['zero as a number', 0, '0'],
    ['negative infinity as guarded text', -Infinity, "'-Infinity"],
    ['NaN as text', NaN, 'NaN'],
  ])('writes %s', (_, value, expected) => {
    expect(csvCell(value)).toBe(expected);
  });
});

describe('csvRow and csvDocument', () => {
  it('joins cells with commas and ends every line with CRLF', () => {
    expect(csvRow(['8.8.8.8', -122.0775, '=x', null])).toBe("8.8.8.8,-122.0775,'=x,");
    expect(csvDocument([['ip', 'longitude'], ['8.8.8.8', -122.0775]])).toBe('ip,longitude\r\n8.8.8.8,-122.0775\r\n');
    expect(csvDocument([])).toBe('');
  });
});

describe('asksForCsv', () => {
  it.each<[string | null, string | null, boolean]>([
    ['csv', null, true],
    ['csv', 'application/json', true],
    [null, 'text/csv', true],
    [null, 'application/json, text/csv;q=0.5', true],
    ['json', 'text/csv', true],
    [null, null, false],
    ['json', null, false],
    ['CSV', null, false],
    ['csvx', null, false],
    [null, 'application/json', false],
    [null, 'text/csvx', false],
    [null, 'xtext/csv', false],
    [null, '*/*', false],
  ])('format %s, Accept %s: %s', (format, accept, expected) => {
    expect(asksForCsv(format, accept)).toBe(expected);
  });
});
