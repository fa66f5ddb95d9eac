/** Time text as editors write it ('5 minutes', '1 hour 30 minutes') → ISO 8601 duration for structured data. */

const UNIT = String.raw`(hours?|hrs?|h\b|minutes?|mins?|m\b)`;
const NUMBER = String.raw`(\d+(?:\.\d+)?)`;
/** A number and its unit, or a range ('10-15 minutes', '10 min - 15 min'), each end with an optional unit. */
const PART = new RegExp(String.raw`${NUMBER}\s*${UNIT}?(?:\s*[-–]\s*${NUMBER}\s*${UNIT}?)?`, 'gi');

/**
 * Total minutes in a time text. A range ('10-15 minutes') counts its upper bound; a number
 * without a unit counts as minutes. Returns undefined when the text has no digits.
 */
export function minutesOf(text: string): number | undefined {
  let total = 0;
  let found = false;
  for (const [, low, lowUnit, high, highUnit] of text.matchAll(PART)) {
    found = true;
    const value = Number(high ?? low);
    const unit = high === undefined ? lowUnit : highUnit ?? lowUnit;
    total += /^h/i.test(unit ?? '') ? value * 60 : value;
  }
  return found ? Math.round(total) : undefined;
}

/** ISO 8601 duration of a time text: '5 minutes' → 'PT5M', '90 min' → 'PT1H30M'; undefined without digits. */
export function isoDuration(text: string): string | undefined {
  const minutes = minutesOf(text);
  if (minutes === undefined) return undefined;
  const hours = Math.floor(minutes / 60);
  const rest = minutes % 60;
  if (minutes === 0) return 'PT0M';
  return `PT${hours ? `${hours}H` : ''}${rest ? `${rest}M` : ''}`;
}
