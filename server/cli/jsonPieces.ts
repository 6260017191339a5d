// `JSON.stringify(value)` handed out in pieces rather than as one string: the outer objects and
// arrays of `value` are walked here and everything below `WALKED_DEPTH` levels is stringified by
// V8 as it is, so the pieces are one session of `status --json` each, not its 1.1 MB at once.
// Written out as they come, they go through a pipe while the next ones are made (the reader on
// another core), and no text of the whole output is ever held (on these machines each fresh page
// of memory costs a fault of about 10 µs). The pieces joined are exactly JSON.stringify(value).

/** Levels walked: the output, its profiles, a profile, its sessions; a session is one piece. */
const WALKED_DEPTH = 4;

/**
 * A list whose JSON items are made from `items` one at a time as they are written (jsonPieces), so
 * each is garbage as soon as it is out; JSON.stringify makes them all at once (toJSON).
 */
export class MappedItems<T, U> {
  constructor(
    readonly items: readonly T[],
    readonly map: (item: T) => U,
  ) {}

  toJSON(): U[] {
    return this.items.map(this.map);
  }
}

/** Calls `emit` with the pieces of `JSON.stringify(value)` in order (nothing for a value JSON leaves out). */
export function jsonPieces(value: unknown, emit: (piece: string) => void): void {
  walk(value, 0, emit);
}

function walk(value: unknown, depth: number, emit: (piece: string) => void): void {
  if (value instanceof MappedItems && depth < WALKED_DEPTH) {
    emit('[');
    const { items, map } = value as MappedItems<unknown, unknown>;
    for (let i = 0; i < items.length; i++) {
      if (i > 0) emit(',');
      walkItem(map(items[i]), depth + 1, emit);
    }
    emit(']');
    return;
  }
  if (depth >= WALKED_DEPTH || !isWalkable(value)) {
    const text = JSON.stringify(value);
    if (text !== undefined) emit(text);
    return;
  }
  if (Array.isArray(value)) {
    emit('[');
    for (let i = 0; i < value.length; i++) {
      if (i > 0) emit(',');
      walkItem(value[i], depth + 1, emit);
    }
    emit(']');
    return;
  }
  emit('{');
  let first = true;
  for (const key of Object.keys(value)) {
    const item: unknown = (value as Record<string, unknown>)[key];
    if (item === undefined || typeof item === 'function' || typeof item === 'symbol') continue;
    emit(`${first ? '' : ','}${JSON.stringify(key)}:`);
    first = false;
    walk(item, depth + 1, emit);
  }
  emit('}');
}

/** An item of a list: as JSON.stringify has it, what an object would leave out is null in a list. */
function walkItem(item: unknown, depth: number, emit: (piece: string) => void): void {
  if (item === undefined || typeof item === 'function' || typeof item === 'symbol') emit('null');
  else walk(item, depth, emit);
}

/**
 * A plain array or object without toJSON: what JSON.stringify writes member by member. Anything
 * else (a Date, a boxed number, a Map, a class with toJSON) is left to JSON.stringify whole.
 */
function isWalkable(value: unknown): value is readonly unknown[] | Record<string, unknown> {
  if (value === null || typeof value !== 'object' || typeof (value as { toJSON?: unknown }).toJSON === 'function') return false;
  if (Array.isArray(value)) return true;
  const proto: unknown = Object.getPrototypeOf(value);
  return proto === Object.prototype || proto === null;
}
