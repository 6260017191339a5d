// Session patches in the tests' terms: one object per session (its id and the fields it changed),
// to and from the columns a delta carries them in (shared/protocol.ts, SessionPatchesDto). Written
// here on their own, apart from the server's and the client's code, so tests check those against
// a second, plain reading of the format.
import type { ProfileDeltaDto, SessionDto, SessionPatchesDto, SessionPatchField } from '../../shared/protocol';

export type SessionPatch = Pick<SessionDto, 'id'> & Partial<Omit<SessionDto, 'id'>>;

/** Each patched session of a profile's delta as its own object, in the order of the columns. */
export function patchesOf(delta: Pick<ProfileDeltaDto, 'patched'>): SessionPatch[] {
  return delta.patched.flatMap((group) => group.ids.map((id, i) => ({ id, ...Object.fromEntries(group.fields.map((field, f) => [field, group.values[f]![i]])) })));
}

/** Patches as a delta's columns: one group per set of fields (in SessionDto's field order), sessions in the order given. */
export function columnsOf(patches: readonly SessionPatch[], fieldOrder: readonly string[]): SessionPatchesDto[] {
  const groups = new Map<string, SessionPatchesDto>();
  for (const patch of patches) {
    const fields = (Object.keys(patch).filter((k) => k !== 'id') as SessionPatchField[]).sort((a, b) => fieldOrder.indexOf(a) - fieldOrder.indexOf(b));
    const key = fields.join(',');
    if (!groups.has(key)) groups.set(key, { fields, ids: [], values: fields.map(() => []) });
    const group = groups.get(key)!;
    group.ids.push(patch.id);
    fields.forEach((field, f) => group.values[f]!.push(patch[field] as never));
  }
  return [...groups.values()];
}
