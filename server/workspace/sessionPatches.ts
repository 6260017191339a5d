// A profile's patches as a session list delta carries them (SessionPatchesDto): the sessions a
// client holds that changed, grouped by the set of fields they changed in, each group's values in
// columns. Made without an object per session: a set of fields is an integer, and each session adds
// its position (extending the group's last run when it follows it) and values to its group.
import { SESSION_JSON_FIELDS, sessionFieldJson, type SessionFieldSet } from '../hermes/engine/reportJson';
import type { SessionReport } from '../hermes/engine/types';
import type { SessionPatchesDto, SessionPatchField } from '../../shared/protocol';

type PatchValue = SessionPatchesDto['values'][number][number];

interface Group {
  /** The bits of the group's fields, in the order of its columns. */
  readonly bits: readonly number[];
  readonly dto: SessionPatchesDto;
}

export class SessionPatchColumns {
  private readonly groups = new Map<SessionFieldSet, Group>();

  /**
   * Adds the JSON of `now`'s `fields` (those changed since the client's copy, never `id`) as the
   * patch of the session at `position` in the client's list; false, adding nothing, when one of
   * them is null: such a session goes whole (SessionPatchesDto says why).
   */
  add(now: SessionReport, fields: SessionFieldSet, position: number): boolean {
    const { bits, dto } = this.groups.get(fields) ?? this.newGroup(fields);
    for (let c = 0; c < bits.length; c++) {
      const value = sessionFieldJson(now, bits[c]!);
      if (value === null) {
        for (let done = 0; done < c; done++) dto.values[done]!.pop();
        return false;
      }
      dto.values[c]!.push(value as PatchValue);
    }
    const runs = dto.at;
    const last = runs.length - 2;
    if (last >= 0 && runs[last]! + runs[last + 1]! === position) runs[last + 1] = runs[last + 1]! + 1;
    else runs.push(position, 1);
    return true;
  }

  /** The groups, in the order their first session came. */
  get patches(): SessionPatchesDto[] {
    const patches: SessionPatchesDto[] = [];
    for (const { dto } of this.groups.values()) if (dto.at.length > 0) patches.push(dto);
    return patches;
  }

  private newGroup(fields: SessionFieldSet): Group {
    const bits = SESSION_JSON_FIELDS.map((_, bit) => bit).filter((bit) => (fields >>> bit) & 1);
    const dto: SessionPatchesDto = { fields: bits.map((bit) => SESSION_JSON_FIELDS[bit] as SessionPatchField), at: [], values: bits.map(() => []) };
    const group = { bits, dto };
    this.groups.set(fields, group);
    return group;
  }
}
