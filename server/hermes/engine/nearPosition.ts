// Finding items of a list kept from the last evaluation, by id, in a list made since in nearly
// the same order: re-evaluation keeps the sessions' order (newest activity first) but for the few
// a Hermes write moves to the top, and those it passed sit one place further down. So each item
// is looked for where its position now says, shifted as the items before it shifted, then one
// place either side; a caller falls back to its own index by id when that misses. A save that
// changes 2,000 sessions, or a write that moves one, is 2,000 position checks instead of lookups.
export class NearPosition {
  /** Where the last item found sat in the kept list, relative to its position now. */
  private shift = 0;

  constructor(private readonly kept: ReadonlyArray<{ readonly id: string }>) {}

  /** Where `id` sits in the kept list, looked for near `position` in the new one; -1 when not there. */
  indexOf(id: string, position: number): number {
    const at = position + this.shift;
    if (this.kept[at]?.id === id) return at;
    if (this.kept[at - 1]?.id === id) {
      this.shift -= 1;
      return at - 1;
    }
    if (this.kept[at + 1]?.id === id) {
      this.shift += 1;
      return at + 1;
    }
    return -1;
  }
}
