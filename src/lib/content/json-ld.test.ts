import { describe, expect, it } from 'vitest';
import { articleLd, breadcrumbListLd, faqPageLd, howToLd, organizationLd, serializeJsonLd, softwareApplicationLd, webPageLd, type JsonLd } from './json-ld.ts';
import { structuredDataProblems } from '../../../tests/support/structured-data.ts';

const URL_ = 'https://example.test/tool/what-is-my-ip';

describe('JSON-LD builders', () => {
  it('leaves out the country of an organisation none of whose addresses is placed', () => {
    expect(organizationLd({ name: 'N', asn: 1, url: URL_, countryCode: null })).not.toHaveProperty('address');
    expect(organizationLd({ name: 'N', asn: 1, url: URL_ })).not.toHaveProperty('address');
  });

  // Built inside the test, not when the table is: a builder's answer is what is under test.
  it.each<[string, () => JsonLd, Record<string, unknown>]>([
    ['a free networking application', () => softwareApplicationLd({ name: 'What Is My IP', description: 'd', url: URL_, keywords: ['a', 'b'] }),
      { '@type': 'SoftwareApplication', offers: { '@type': 'Offer', price: '0', priceCurrency: 'USD' }, applicationSubCategory: 'Networking', keywords: 'a, b' }],
    ['an article with its author', () => articleLd({ headline: 'H', description: 'D', url: URL_, datePublished: '2025-01-15', author: 'Ada' }),
      { '@type': 'Article', dateModified: '2025-01-15', author: { '@type': 'Organization', name: 'Ada' } }],
    ['a how-to with numbered steps and a duration', () => howToLd({ name: 'Hide', steps: ['One', 'Two'], time: '10 minutes' }),
      { '@type': 'HowTo', totalTime: 'PT10M', step: [
        { '@type': 'HowToStep', position: 1, name: 'One', text: 'One' },
        { '@type': 'HowToStep', position: 2, name: 'Two', text: 'Two' }] }],
    ['an FAQ page', () => faqPageLd([{ question: 'Q?', answer: 'A.' }]),
      { '@type': 'FAQPage', mainEntity: [{ '@type': 'Question', name: 'Q?', acceptedAnswer: { '@type': 'Answer', text: 'A.' } }] }],
    ['a breadcrumb trail', () => breadcrumbListLd([{ name: 'Home', url: 'https://example.test/' }, { name: 'Tools', url: 'https://example.test/tools' }]),
      { '@type': 'BreadcrumbList', itemListElement: [
        { '@type': 'ListItem', position: 1, name: 'Home', item: 'https://example.test/' },
        { '@type': 'ListItem', position: 2, name: 'Tools', item: 'https://example.test/tools' }] }],
    ['a collection page', () => webPageLd({ type: 'CollectionPage', name: 'N', description: 'D', url: URL_ }),
      { '@type': 'CollectionPage', name: 'N', url: URL_ }],
    ['a plain page when no type is given', () => webPageLd({ name: 'N', description: 'D', url: URL_ }),
      { '@type': 'WebPage', name: 'N', description: 'D', url: URL_ }],
    ['an article in its blog category', () => articleLd({ headline: 'H', description: 'D', url: URL_, datePublished: '2025-01-15', author: 'Ada', section: 'Privacy' }),
      { '@type': 'Article', articleSection: 'Privacy' }],
    ['a guide\'s how-to with its description and page', () => howToLd({ name: 'Hide', steps: ['One'], time: '5 minutes', description: 'Steps to hide it', url: URL_ }),
      { '@type': 'HowTo', description: 'Steps to hide it', url: URL_, totalTime: 'PT5M' }],
    ['a network\'s organisation with its AS number and country', () => organizationLd({ name: 'Google LLC', asn: 15169, url: URL_, countryCode: 'US' }),
      { '@type': 'Organization', name: 'Google LLC', identifier: { '@type': 'PropertyValue', propertyID: 'ASN', value: 'AS15169' },
        subjectOf: { '@type': 'WebPage', url: URL_ }, address: { '@type': 'PostalAddress', addressCountry: 'US' } }],
  ])('builds %s with every required field', (_, build, expected) => {
    const block = build();
    expect(block).toMatchObject({ '@context': 'https://schema.org', ...expected });
    expect(structuredDataProblems(block)).toEqual([]);
  });

  it('leaves totalTime out when the time text has no digits, which the rules reject', () => {
    const block = howToLd({ name: 'x', steps: ['a'], time: 'quick' });
    expect(block).not.toHaveProperty('totalTime');
    expect(structuredDataProblems(block)).toEqual(['HowTo: totalTime']);
  });

  it('flags incomplete blocks', () => {
    expect(structuredDataProblems({ '@context': 'https://schema.org', '@type': 'Article', headline: 'x' }))
      .toEqual(['Article: description', 'Article: datePublished', 'Article: author.name', 'Article: publisher.name']);
    expect(structuredDataProblems({ '@context': 'https://schema.org', '@type': 'Thing' })).toEqual(['unknown @type Thing']);
  });
});

describe('serializeJsonLd', () => {
  it('escapes < and line separators so the text cannot close the script element, and parses back unchanged', () => {
    const block = faqPageLd([{ question: '</script><script>alert(1)</script>', answer: 'a\u2028b\u2029c <!-- d' }]);
    const text = serializeJsonLd(block);
    expect(text).not.toMatch(/<|\u2028|\u2029/);
    expect(JSON.parse(text)).toEqual(block);
  });
});
