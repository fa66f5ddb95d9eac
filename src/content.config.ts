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

export const collections = { navigation };
