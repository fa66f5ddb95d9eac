/**
 * The DNS leak test's copy, bundled with the code that shows it: the card and the leak
 * summary load lazily on `/`, so their texts come with them rather than with the page's
 * own texts (src/islands/island-text.ts). The file is the one the `dnsLeakCopy` collection
 * validates at build; tests/dns-leak-copy.test.ts checks both read the same.
 */
import entries from '../../content/site/dns-leak.json' with { type: 'json' };
import { section } from '../lib/sections.ts';
import type { DnsLeakCopy } from '../schemas/dns-leak-copy.ts';

const copy = entries as DnsLeakCopy[];

export type DnsLeakText<K extends DnsLeakCopy['id']> = Extract<DnsLeakCopy, { id: K }>;

export const DNS_LEAK_TEXT = {
  page: section(copy, 'page'),
  card: section(copy, 'card'),
  summary: section(copy, 'summary'),
};
