/**
 * schema.org JSON-LD builders for the pages' structured data, and the serializer that
 * makes a block safe inside `<script type="application/ld+json">`.
 */
import { isoDuration } from './duration.ts';

/** One JSON-LD block: a schema.org node with its context. */
export type JsonLd = { '@context': 'https://schema.org'; '@type': string } & Record<string, unknown>;

const CONTEXT = 'https://schema.org' as const;
/** Who publishes the site, named in articles. */
export const PUBLISHER = { '@type': 'Organization', name: 'WhatIsMyIP' } as const;

/** A free web application (price 0 USD): `/` and the tool pages. */
export function softwareApplicationLd(p: { name: string; description: string; url: string; keywords?: string[] }): JsonLd {
  return {
    '@context': CONTEXT, '@type': 'SoftwareApplication',
    name: p.name, description: p.description, url: p.url,
    // Google accepts only its own app types here; "networking" goes in the subcategory.
    applicationCategory: 'UtilitiesApplication', applicationSubCategory: 'Networking',
    operatingSystem: 'Any (web browser)',
    offers: { '@type': 'Offer', price: '0', priceCurrency: 'USD' },
    ...(p.keywords?.length ? { keywords: p.keywords.join(', ') } : {}),
  };
}

/** A blog post. Dates are ISO strings (YYYY-MM-DD). */
export function articleLd(p: { headline: string; description: string; url: string; datePublished: string;
  dateModified?: string; author: string; section?: string }): JsonLd {
  return {
    '@context': CONTEXT, '@type': 'Article',
    headline: p.headline, description: p.description, url: p.url, mainEntityOfPage: p.url,
    datePublished: p.datePublished, dateModified: p.dateModified ?? p.datePublished,
    author: { '@type': 'Organization', name: p.author }, publisher: PUBLISHER,
    ...(p.section ? { articleSection: p.section } : {}),
  };
}

/** Step-by-step instructions; `time` is the editors' text ('5 minutes'), turned into `totalTime`. */
export function howToLd(p: { name: string; steps: string[]; time: string; description?: string; url?: string }): JsonLd {
  const totalTime = isoDuration(p.time);
  return {
    '@context': CONTEXT, '@type': 'HowTo', name: p.name,
    ...(p.description ? { description: p.description } : {}),
    ...(p.url ? { url: p.url } : {}),
    ...(totalTime ? { totalTime } : {}),
    step: p.steps.map((text, i) => ({ '@type': 'HowToStep', position: i + 1, name: text, text })),
  };
}

/** Questions and answers shown on the page. */
export function faqPageLd(items: Array<{ question: string; answer: string }>): JsonLd {
  return {
    '@context': CONTEXT, '@type': 'FAQPage',
    mainEntity: items.map((f) => ({ '@type': 'Question', name: f.question, acceptedAnswer: { '@type': 'Answer', text: f.answer } })),
  };
}

/** The trail from the home page to a nested page; `url`s are absolute. */
export function breadcrumbListLd(crumbs: Array<{ name: string; url: string }>): JsonLd {
  return {
    '@context': CONTEXT, '@type': 'BreadcrumbList',
    itemListElement: crumbs.map((c, i) => ({ '@type': 'ListItem', position: i + 1, name: c.name, item: c.url })),
  };
}

/** A plain page, a hub listing other pages (CollectionPage) or an about page. */
export function webPageLd(p: { type?: 'WebPage' | 'CollectionPage' | 'AboutPage'; name: string; description: string; url: string }): JsonLd {
  return { '@context': CONTEXT, '@type': p.type ?? 'WebPage', name: p.name, description: p.description, url: p.url };
}

/**
 * An organisation known by its network (an autonomous system): its name, its AS number as
 * the identifier, the country most of its addresses are in when known, and the page about it.
 */
export function organizationLd(p: { name: string; asn: number; url: string; countryCode?: string | null }): JsonLd {
  return {
    '@context': CONTEXT, '@type': 'Organization', name: p.name,
    identifier: { '@type': 'PropertyValue', propertyID: 'ASN', value: `AS${p.asn}` },
    subjectOf: { '@type': 'WebPage', url: p.url },
    ...(p.countryCode ? { address: { '@type': 'PostalAddress', addressCountry: p.countryCode } } : {}),
  };
}

/**
 * JSON text safe inside a `<script>` element: `<` (so no `</script>` or `<!--`) and the
 * line separators U+2028/2029 become escapes; the JSON value is unchanged.
 */
export function serializeJsonLd(data: JsonLd): string {
  return JSON.stringify(data)
    .replace(/</g, '\\u003c')
    .replace(/\u2028/g, '\\u2028')
    .replace(/\u2029/g, '\\u2029');
}
