/** Types of the copy the /ip-3 and /performance pages hand to their islands as props. */
import type { CollectionEntry } from 'astro:content';

type Data<C extends 'ipTools' | 'performance'> = CollectionEntry<C>['data'];

/** One section of content/site/ip-tools.json. */
export type ToolsCopy<K extends Data<'ipTools'>['id']> = Extract<Data<'ipTools'>, { id: K }>;
/** One section of content/site/performance.json. */
export type PerformanceCopy<K extends Data<'performance'>['id']> = Extract<Data<'performance'>, { id: K }>;
/** One entry of content/site/web-vitals.json. */
export type VitalCopy = CollectionEntry<'webVitals'>['data'];
