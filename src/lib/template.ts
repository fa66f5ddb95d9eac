/** Fills `{name}` placeholders in copy from content/ with values computed on screen. */

/** Replaces each `{name}` with `values[name]`; an unknown name is left as written. */
export function fill(template: string, values: Record<string, string | number>): string {
  return template.replace(/\{(\w+)\}/g, (match, name: string) =>
    Object.hasOwn(values, name) ? String(values[name]) : match);
}
