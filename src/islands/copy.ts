/** Types of the copy the /ip-3 and /performance pages hand to their islands as props. */
import type { CollectionEntry } from 'astro:content';

type Data<C extends 'tools' | 'performance'> = CollectionEntry<C>['data'];

/** One section of content/site/tools.json. */
export type ToolsCopy<K extends Data<'tools'>['id']> = Extract<Data<'tools'>, { id: K }>;
/** One section of content/site/performance.json. */
export type PerformanceCopy<K extends Data<'performance'>['id']> = Extract<Data<'performance'>, { id: K }>;
/** One entry of content/site/web-vitals.json. */
export type VitalCopy = CollectionEntry<'webVitals'>['data'];
