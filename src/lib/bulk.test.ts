import { describe, expect, it } from 'vitest';
import { BULK_LIMIT, BulkResponseSchema, parseBulkInput } from './bulk.ts';

describe('parseBulkInput', () => {
  it.each([
    ['one per line', '8.8.8.8\n1.1.1.1\n', ['8.8.8.8', '1.1.1.1'], 0],
    ['Windows line ends', '8.8.8.8\r\n1.1.1.1\r\n', ['8.8.8.8', '1.1.1.1'], 0],
    ['commas', '8.8.8.8,1.1.1.1, 9.9.9.9', ['8.8.8.8', '1.1.1.1', '9.9.9.9'], 0],
    ['spaces, tabs and semicolons', '8.8.8.8 1.1.1.1\t9.9.9.9;2001:db8::1', ['8.8.8.8', '1.1.1.1', '9.9.9.9', '2001:db8::1'], 0],
    ['blank lines and padding ignored', '\n\n  8.8.8.8  \n\n\t\n1.1.1.1\n\n', ['8.8.8.8', '1.1.1.1'], 0],
    ['empty commas ignored', ',,8.8.8.8,,,', ['8.8.8.8'], 0],
    ['repeats kept once, first position', '1.1.1.1\n8.8.8.8\n1.1.1.1\n8.8.8.8\n1.1.1.1', ['1.1.1.1', '8.8.8.8'], 3],
    ['bad entries kept for the API to report', 'hello\n8.8.8.8\n999.1.1.1', ['hello', '8.8.8.8', '999.1.1.1'], 0],
    ['nothing at all', ' \n\t, ', [], 0],
  ])('%s', (_name, text, ips, duplicates) => {
    expect(parseBulkInput(text)).toEqual({ ips, duplicates, tooMany: false });
  });

  const lines = (n: number) => Array.from({ length: n }, (_, i) => `10.0.${i >> 8}.${i & 255}`).join('\n');

  it.each([
    [BULK_LIMIT - 1, false],
    [BULK_LIMIT, false],
    [BULK_LIMIT + 1, true],
    [250, true],
  ])('%i distinct addresses: over the limit is %s', (n, tooMany) => {
    const parsed = parseBulkInput(lines(n));
    expect(parsed.ips).toHaveLength(n);
    expect(parsed.tooMany).toBe(tooMany);
  });

  it('counts the limit after removing repeats', () => {
    const parsed = parseBulkInput(`${lines(BULK_LIMIT)}\n${lines(BULK_LIMIT)}`);
    expect(parsed).toMatchObject({ duplicates: BULK_LIMIT, tooMany: false });
  });
});

describe('BulkResponseSchema', () => {
  it('accepts a mix of records and per-row errors', () => {
    const body = { count: 1, results: [{ input: 'bad', error: { code: 'invalid_ip', message: '"bad" is not an IP address.' } }] };
    expect(BulkResponseSchema.safeParse(body).success).toBe(true);
  });

  it.each([
    ['a row with neither data nor error', { count: 1, results: [{ input: '8.8.8.8' }] }],
    ['a record missing fields', { count: 1, results: [{ input: '8.8.8.8', data: { ip: '8.8.8.8' } }] }],
    ['no results array', { count: 0 }],
  ])('rejects %s', (_name, body) => expect(BulkResponseSchema.safeParse(body).success).toBe(false));
});
