/**
 * What a batch loader answers: for each key asked, in the order asked, its items in the items'
 * own order (the statement's). One pass over the items, not one scan of them per key: a loader of
 * every booking of 100 customers compared each booking with each customer.
 */
export function perKey<K, T>(keys: readonly K[], items: readonly T[], keyOf: (item: T) => K): T[][] {
  const found = new Map<K, T[]>();
  for (const key of keys) if (!found.has(key)) found.set(key, []);
  for (const item of items) found.get(keyOf(item))?.push(item);
  // A key asked twice gets a copy of its own, as each filter made one.
  const given = new Set<K>();
  return keys.map((key) => {
    const items = found.get(key)!;
    if (given.has(key)) return [...items];
    given.add(key);
    return items;
  });
}
