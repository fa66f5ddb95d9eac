/** Picks one section out of a collection that stores one entry per page section. */

/** The entry whose id is `id`, typed as that section; a missing section fails the build. */
export function section<T extends { id: string }, K extends T['id']>(entries: readonly T[], id: K): Extract<T, { id: K }> {
  const found = entries.find((entry) => entry.id === id);
  if (!found) throw new Error(`content section "${id}" is missing`);
  return found as Extract<T, { id: K }>;
}
