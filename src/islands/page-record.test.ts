/** The page's data block: its text escapes `<`, and an island hydrating reads it once. */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { lookupResponse } from '../../tests/support/lookup-response.ts';
import { initialRecord, PAGE_RECORD_ID, pageRecordJson } from './page-record.ts';

afterEach(() => { vi.unstubAllGlobals(); });

describe('pageRecordJson', () => {
  it('escapes every < so no text can end the block, and parses back to the record', () => {
    const record = lookupResponse('192.0.2.1', '</script><!--<b>');
    const json = pageRecordJson(record);
    expect(json).not.toContain('<');
    expect(json).toContain('\\u003c/script>\\u003c!--\\u003cb>');
    expect(JSON.parse(json)).toEqual(record);
  });

  it('leaves a record without < as JSON.stringify writes it', () => {
    const record = lookupResponse('192.0.2.1');
    expect(pageRecordJson(record)).toBe(JSON.stringify(record));
  });
});

describe('initialRecord on a hydrating page', () => {
  function page(text: string | null) {
    const block = { textContent: text };
    const asked: string[] = [];
    vi.stubGlobal('document', { getElementById: (id: string) => { asked.push(id); return text === null ? null : block; } });
    return { block, asked };
  }

  it('reads the data block for the marker, once per block', () => {
    const record = lookupResponse('192.0.2.1');
    const { block, asked } = page(pageRecordJson(record));
    const first = initialRecord({ from: 'page' });
    expect(first).toEqual(record);
    block.textContent = 'null';
    expect(initialRecord({ from: 'page' })).toBe(first);
    expect(asked).toEqual([PAGE_RECORD_ID, PAGE_RECORD_ID]);
  });

  it('is none when the page has no data block', () => {
    page(null);
    expect(initialRecord({ from: 'page' })).toBeNull();
  });
});
