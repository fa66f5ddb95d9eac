/**
 * What each JSON-LD type we publish must carry (Google's required and recommended fields
 * for the rich results we aim at). Shared by the builder unit tests and the crawler.
 */

type Node = Record<string, unknown>;
const isObject = (v: unknown): v is Node => typeof v === 'object' && v !== null && !Array.isArray(v);
const text = (v: unknown) => typeof v === 'string' && v.trim().length > 0;
const absoluteUrl = (v: unknown) => typeof v === 'string' && /^https?:\/\/[^/]+/.test(v);
const ISO_DATE = /^\d{4}-\d{2}-\d{2}/;
const ISO_DURATION = /^PT(?:\d+H)?(?:\d+M)?$/;

const RULES: Record<string, (n: Node) => string[]> = {
  SoftwareApplication: (n) => [
    ...(text(n.name) ? [] : ['name']),
    ...(text(n.applicationCategory) ? [] : ['applicationCategory']),
    ...(text(n.operatingSystem) ? [] : ['operatingSystem']),
    ...(isObject(n.offers) && Number(n.offers.price) === 0 && n.offers.priceCurrency === 'USD' ? [] : ['offers (price 0 USD)']),
  ],
  Article: (n) => [
    ...(text(n.headline) ? [] : ['headline']),
    ...(text(n.description) ? [] : ['description']),
    ...(typeof n.datePublished === 'string' && ISO_DATE.test(n.datePublished) ? [] : ['datePublished']),
    ...(isObject(n.author) && text(n.author.name) ? [] : ['author.name']),
    ...(isObject(n.publisher) && text(n.publisher.name) ? [] : ['publisher.name']),
  ],
  HowTo: (n) => [
    ...(text(n.name) ? [] : ['name']),
    ...(typeof n.totalTime === 'string' && ISO_DURATION.test(n.totalTime) && n.totalTime !== 'PT' ? [] : ['totalTime']),
    ...(Array.isArray(n.step) && n.step.length > 0 && n.step.every((s) => isObject(s) && s['@type'] === 'HowToStep' && text(s.text))
      ? [] : ['step']),
  ],
  FAQPage: (n) => (Array.isArray(n.mainEntity) && n.mainEntity.length > 0 && n.mainEntity.every((q) =>
    isObject(q) && q['@type'] === 'Question' && text(q.name) && isObject(q.acceptedAnswer) && text(q.acceptedAnswer.text))
    ? [] : ['mainEntity']),
  Organization: (n) => [
    ...(text(n.name) ? [] : ['name']),
    ...(isObject(n.identifier) && text(n.identifier.value) ? [] : ['identifier']),
  ],
  BreadcrumbList: (n) => (Array.isArray(n.itemListElement) && n.itemListElement.length > 1 && n.itemListElement.every((c, i) =>
    isObject(c) && c.position === i + 1 && text(c.name) && absoluteUrl(c.item))
    ? [] : ['itemListElement']),
};
const PAGE = (n: Node) => [
  ...(text(n.name) ? [] : ['name']),
  ...(text(n.description) ? [] : ['description']),
  ...(absoluteUrl(n.url) ? [] : ['url']),
];
for (const type of ['WebPage', 'CollectionPage', 'AboutPage']) RULES[type] = PAGE;

/** The types this site publishes. */
export const KNOWN_TYPES = Object.keys(RULES);

/** What is missing or wrong in one JSON-LD block; empty when it is complete. */
export function structuredDataProblems(block: unknown): string[] {
  if (!isObject(block)) return ['not an object'];
  if (block['@context'] !== 'https://schema.org') return ['@context'];
  const type = String(block['@type']);
  const rule = RULES[type];
  return rule ? rule(block).map((field) => `${type}: ${field}`) : [`unknown @type ${type}`];
}
