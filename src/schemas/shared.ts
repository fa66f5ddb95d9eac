/** Schema pieces every content schema shares: links, slugs, dates, item keys, copy strings. */
import { z } from 'astro/zod';

export const link = z.strictObject({
id: z.string().describe('Stable key of the link'),
label: z.string().describe('Text shown'),
href: z.string().startsWith('/').describe('Internal path the link opens; it must exist'),
order: z.number().int().describe('Position in the list, ascending'),
});

export const slug = z.string().regex(/^[a-z0-9]+(?:-[a-z0-9]+)*$/, 'lowercase words joined by hyphens');

export const timeText = z.string().regex(/\d/, 'must contain the number of minutes')
.describe("How long it takes, as shown, e.g. '5 minutes'; the digits become the structured-data duration");

export const difficultyLevel = z.enum(['Beginner', 'Intermediate']).describe('Who the guide is for');

/** When an editor last checked a landing file's facts; shown on the page, and tests/content.test.ts fails past a year. */
export const reviewed = z.coerce.date().describe('Date the facts in this file were last checked against their sources, YYYY-MM-DD');

/** A link to where a named feature lives; tests/e2e/feature-claims.test.ts checks it answers 200 and its #anchor exists. */
export const featureHref = z.string().regex(/^\/[^\s]*$/).describe("Internal path (with optional ?query and #anchor) where the feature can be used, e.g. '/ip-3#webrtc-heading'");

export const id = z.string().describe('Stable key of the item (the file loader needs one)');

export const position = z.number().int().nonnegative().describe('Set by the loader: index in the file (display order); do not write it');

// Copy of the lookup pages (/, /ip-2, /ip-4): texts the islands show, page headings, checklist.
export const text = (describe: string) => z.string().min(1).describe(describe);

export const template = (describe: string) => z.string().min(1).describe(`${describe}; {name} marks a value filled in`);

// Advanced tools (/ip-3) and performance (/performance) pages (text and template: see above).

/** Head of a page section: search metadata, breadcrumb, h1 and the closing call to action's heading and text. */
export const pageHead = (path: string) => ({
id: z.literal('page'),
title: z.string().min(1).max(70).describe(`Browser title of ${path}; unique across the site`),
description: z.string().min(50).max(170).describe(`Meta description of ${path}, 50-170 characters; unique across the site`),
breadcrumb: text('Short name of the page in the breadcrumb trail'),
heading: text('The page heading (h1)'),
ctaHeading: text('Heading of the closing call to action'),
ctaText: text('Sentence of the call to action'),
});

// What `npm run bench:accuracy` measured (content/site/accuracy.json, written by the bench,
// never by hand) and the /trust copy around it.
export const share = z.number().min(0).max(1);
