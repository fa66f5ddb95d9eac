/**
 * Content collections: every piece of copy and data the pages show lives in `content/`,
 * typed here with strict schemas. An editor adds a page by adding one file.
 */
import { defineCollection } from 'astro:content';
import { file } from 'astro/loaders';
import { z } from 'astro/zod';

const navigation = defineCollection({
  loader: file('content/site/navigation.json'),
  schema: z.strictObject({
    id: z.string().describe('Stable key of the link'),
    label: z.string().describe('Text shown in the header'),
    href: z.string().startsWith('/').describe('Internal path the link opens; it must exist'),
    order: z.number().int().describe('Position in the header, ascending'),
  }),
});

const offers = defineCollection({
  loader: file('content/site/offers.json'),
  schema: z.strictObject({
    id: z.string().describe('Stable key of the offer'),
    name: z.string().describe('Provider name as shown'),
    category: z.enum(['security', 'streaming', 'privacy']).describe('Which recommendation this offer answers'),
    order: z.number().int().describe('Position inside its category; the first is labelled RECOMMENDED'),
    description: z.string(),
    features: z.array(z.string()).min(1),
    pricePerMonth: z.number().positive().describe('Price per month in USD'),
    rating: z.number().min(0).max(5),
    icon: z.string().describe('An emoji shown beside the name'),
    affiliateUrl: z.union([z.url({ protocol: /^https$/ }), z.literal('')])
      .describe('Affiliate link (https); empty shows the offer without a link, never a dead "#"'),
  }),
});

export const collections = { navigation, offers };
