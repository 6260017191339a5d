// A list in an English sentence: `a`, `a and b`, `a, b and c`; beyond `most` items the rest are counted.

export function englishList(items: readonly string[], most = Infinity): string {
  if (items.length <= 1) return items[0] ?? '';
  const shown = items.length > most ? [...items.slice(0, most - 1), `${items.length - most + 1} more`] : items;
  return `${shown.slice(0, -1).join(', ')} and ${shown[shown.length - 1]}`;
}
