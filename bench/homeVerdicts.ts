// What `status --json` must say of a bench home (bench/largeHome.ts), checked in the runs the bench
// times: untouched, no session is stale; right after an edit of SOUL.md, every live session is stale
// for SOUL.md alone. A home the engine mis-reads would make the figures time the wrong work, so the
// bench stops instead (the unit test test/unit/bench/benchHome.test.ts checks the same on a small home).
import type { LargeHome } from './largeHome';

interface StatusJson {
  readonly profiles: ReadonlyArray<{ readonly sessions: ReadonlyArray<{ readonly id: string; readonly state: string; readonly reasons: ReadonlyArray<{ readonly source: string }> }> }>;
}

/** Throws unless every live session is listed and none is stale. */
export function checkUntouched(stdout: string, home: LargeHome): void {
  const sessions = listed(stdout, home);
  const judged = sessions.filter((s) => s.state === 'stale' || s.reasons.length > 0);
  if (judged.length) throw new Error(`the untouched bench home has ${judged.length} stale session(s), e.g. ${judged[0]!.id} (${judged[0]!.reasons.map((r) => r.source).join(', ')}): the engine mis-reads a generated prompt`);
}

/** Throws unless every live session gives SOUL.md as its one reason, and none is fresh. */
export function checkSoulEdited(stdout: string, home: LargeHome): void {
  const sessions = listed(stdout, home);
  const wrong = sessions.filter((s) => s.state === 'fresh' || s.reasons.length !== 1 || s.reasons[0]!.source !== 'soul');
  if (wrong.length) throw new Error(`after an edit of SOUL.md, ${wrong.length} session(s) are not stale because of it alone, e.g. ${wrong[0]!.id} (${wrong[0]!.state})`);
}

function listed(stdout: string, home: LargeHome): StatusJson['profiles'][number]['sessions'] {
  const sessions = (JSON.parse(stdout) as StatusJson).profiles[0]?.sessions ?? [];
  if (sessions.length !== home.liveSessionIds.length) throw new Error(`status listed ${sessions.length} sessions, the home has ${home.liveSessionIds.length} live ones`);
  return sessions;
}
