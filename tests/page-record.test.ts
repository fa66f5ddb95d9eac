/**
 * The page's record, carried once (src/islands/page-record.ts): what Astro writes into an
 * island's props for a PageRecord, and the record each kind of `initial` starts an island
 * from on the server. The data block's escaping is in tests/page-shell.test.ts. Reading the data block in a browser is checked in Chromium
 * (tests/e2e/home.test.ts: every island hydrates from it without asking the API).
 */
import { serializeProps } from 'astro/runtime/server/serialize.js';
import { describe, expect, it } from 'vitest';
import { initialRecord, PageRecord } from '../src/islands/page-record.ts';
import type { LookupResponse } from '../src/lib/record.ts';

const record = { success: true, data: { ip: '192.0.2.1', city: 'Bristol' }, device: null, confidence: 0.5, sources_used: [] } as unknown as LookupResponse;

describe('a PageRecord', () => {
  it('is written into the props as its marker alone, not the record', () => {
    expect(serializeProps({ initial: new PageRecord(record) }, {} as never)).toBe('{"initial":[0,{"from":[0,"page"]}]}');
  });

  it('gives the server its record', () => {
    expect(initialRecord(new PageRecord(record))).toBe(record);
  });
});

describe('the record an island starts from', () => {
  it('is the record it was given, or none', () => {
    expect(initialRecord(record)).toBe(record);
    expect(initialRecord(null)).toBeNull();
    expect(initialRecord(undefined)).toBeNull();
  });

  it("is none for the page's marker where there is no page (the server's string renderer is given the record itself)", () => {
    expect(initialRecord({ from: 'page' })).toBeNull();
  });
});

