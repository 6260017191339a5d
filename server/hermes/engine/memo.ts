/** The value `map` holds for `key`, made and kept on first use. */
export function memo<K, V>(map: Map<K, V>, key: K, make: () => V): V {
  const hit = map.get(key);
  if (hit !== undefined) return hit;
  const value = make();
  map.set(key, value);
  return value;
}
