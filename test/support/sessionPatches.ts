// Session patches in the tests' terms: one object per session (its id and the fields it changed),
// to and from the columns a delta carries them in (shared/protocol.ts, SessionPatchesDto: sessions
// named by runs of positions in the client's list once the removed ones are out). Written here on
// their own, apart from the server's and the client's code, so tests check those against a second,
// plain reading of the format.
import type { ProfileDeltaDto, SessionDto, SessionPatchesDto, SessionPatchField } from '../../shared/protocol';

export type SessionPatch = Pick<SessionDto, 'id'> & Partial<Omit<SessionDto, 'id'>>;

/** The positions runs `[first, count, …]` name, in turn. */
export function positionsOf(runs: readonly number[]): number[] {
  const positions: number[] = [];
  for (let r = 0; r < runs.length; r += 2) for (let k = 0; k < runs[r + 1]!; k++) positions.push(runs[r]! + k);
  return positions;
}

/**
 * Each patched session of a profile's delta as its own object, in the order of the columns;
 * `held` is the list the delta applies to (the client's, in its order).
 */
export function patchesOf(delta: Pick<ProfileDeltaDto, 'patched' | 'removed'>, held: ReadonlyArray<{ readonly id: string }>): SessionPatch[] {
  const gone = new Set(delta.removed);
  const list = held.filter((s) => !gone.has(s.id));
  return delta.patched.flatMap((group) =>
    positionsOf(group.at).map((p, i) => ({ id: list[p]!.id, ...Object.fromEntries(group.fields.map((field, f) => [field, group.values[f]![i]])) })),
  );
}

/**
 * Patches as a delta's columns: one group per set of fields (in SessionDto's field order), sessions
 * in the order given, each named by its position in `list` (the client's list once the removed
 * sessions are out); consecutive positions make one run.
 */
export function columnsOf(patches: readonly SessionPatch[], fieldOrder: readonly string[], list: ReadonlyArray<{ readonly id: string }>): SessionPatchesDto[] {
  const groups = new Map<string, SessionPatchesDto>();
  for (const patch of patches) {
    const fields = (Object.keys(patch).filter((k) => k !== 'id') as SessionPatchField[]).sort((a, b) => fieldOrder.indexOf(a) - fieldOrder.indexOf(b));
    const key = fields.join(',');
    if (!groups.has(key)) groups.set(key, { fields, at: [], values: fields.map(() => []) });
    const group = groups.get(key)!;
    const position = list.findIndex((s) => s.id === patch.id);
    const last = group.at.length - 2;
    if (last >= 0 && group.at[last]! + group.at[last + 1]! === position) group.at[last + 1]! += 1;
    else group.at.push(position, 1);
    fields.forEach((field, f) => group.values[f]!.push(patch[field] as never));
  }
  return [...groups.values()];
}
