/** Texts of the analytics tab (content/site/lookup-text.json, `analytics`). */
import type { LookupText } from '../use-lookup.ts';

export type AnalyticsText = LookupText['analytics'];
