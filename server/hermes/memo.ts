/**
 * The value `map` holds for `key`, made and kept on first use. `make` gets the key, so a function
 * of the key alone is passed as it is, without a closure made per call on a per-session path.
 */
export function memo<K, V>(map: Map<K, V>, key: K, make: (key: K) => V): V {
  const hit = map.get(key);
  if (hit !== undefined) return hit;
  const value = make(key);
  map.set(key, value);
  return value;
}
