/**
 * "What we keep" is said once: content/site/kept-fields.json names every field of the rows
 * src/server/storage/event.ts stores, and the footer, /trust, the privacy guide and the
 * analytics tab each join that list (src/lib/content/kept-fields.ts) instead of writing
 * their own. A field added to a row without words fails here, and so does a page that
 * lists what is kept by hand or calls the rows anonymous.
 */
import { readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { correctionRow, lookupRow } from '../src/server/storage/event.ts';
import { parseIp } from '../src/lib/ip-address.ts';
import type { IpInfo } from '../src/lib/record.ts';
import type { KeptField } from '../src/lib/content/kept-fields.ts';

const read = (file: string) => readFileSync(path.resolve(file), 'utf8');
const kept = JSON.parse(read('content/site/kept-fields.json')) as KeptField[];
const described = (row: KeptField['row']) => kept.filter((k) => k.row === row).flatMap((k) => k.fields).sort();

describe('what a stored row holds, in words', () => {
  const address = parseIp('2001:db8:85a3::1')!;

  it('names every field of a stored lookup, and no field it does not have', () => {
    const row = lookupRow(address, {} as IpInfo, 0);
    expect(described('lookup')).toEqual(Object.keys(row).sort());
  });

  it('names every field of a stored correction, and no field it does not have', () => {
    const row = correctionRow(address, { distance_km: 1, country_code: 'DE', network_type: 'residential', nearer_source: 'tie' }, 0, 'AS64500');
    expect(described('correction')).toEqual(Object.keys(row).sort());
  });

  it.each([
    ['the footer', 'content/site/footer.json', ['{lookup}']],
    ['/trust', 'content/site/data-kept.json', ['{lookupFields}', '{correctionFields}']],
    ['the privacy guide', 'content/guides/ip-address-privacy.mdx', ['<KeptFields row="lookup" />']],
    ['the analytics tab', 'content/site/lookup-text.json', ['{kept}']],
  ])('is what %s shows: it fills the list in, it does not write its own', (_, file, markers) => {
    const text = read(file);
    for (const marker of markers) expect(text, `${file} lacks ${marker}`).toContain(marker);
  });

  const files = [
    ...['content/site', 'content/tools', 'content/guides', 'content/blog'].flatMap((dir) => readdirSync(dir).map((f) => `${dir}/${f}`)),
    'src/components/SiteFooter.astro', 'README.md', 'docs/analytics.md', 'docs/architecture.md', 'docs/api.md', 'docs/configuration.md',
  ];
  it.each(files)('%s does not call what is kept anonymous', (file) => {
    expect(read(file)).not.toMatch(/anonymous (?:statistic|network|prefix|record|row|data|analytic)/i);
  });
});
