/**
 * The DNS leak test's islands bundle their copy (src/islands/dns-leak-text.ts) from the file
 * the `dnsLeakCopy` collection validates at build: each section parses under its schema to
 * the very values the islands read.
 */
import { expect, it } from 'vitest';
import { DNS_LEAK_TEXT } from '../src/islands/dns-leak-text.ts';
import { dnsLeakCopySchema } from '../src/schemas/dns-leak-copy.ts';

it('holds every section of the DNS leak copy as its schema reads it', () => {
  for (const section of Object.values(DNS_LEAK_TEXT)) expect(dnsLeakCopySchema.parse(section)).toEqual(section);
});
