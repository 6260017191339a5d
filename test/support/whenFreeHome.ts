// A Hermes home for the refresh-when-free tests: three stale sessions whose prompt caches expire at
// known times (the default 5-minute TTL), and what state.db says was requested.
import Database from 'better-sqlite3';
import * as path from 'node:path';
import { HomeBuilder, type ProfileBuilder } from '../../server/demo/homeBuilder';

/** The SOUL.md the sessions' prompts were built from (writing it back makes them current). */
export const BUILT_SOUL = 'You are Kit.\n';

export interface WhenFreeHome {
  readonly root: string;
  readonly def: ProfileBuilder;
  /** Idle 60 s: its cache expires at now + 240. */
  readonly warm: string;
  /** Idle an hour: its cache has expired. */
  readonly cold: string;
  /** Idle 200 s: its cache expires at now + 100. */
  readonly soon: string;
}

/** The home in `dir`, its sessions' last activity relative to `now` (epoch seconds); SOUL.md edited since, so all three are stale. */
export function whenFreeHome(dir: string, now: number, seed: number): WhenFreeHome {
  const home = HomeBuilder.create(path.join(dir, 'hermes'), { seed });
  const def = home.profile();
  def.writeSoul(BUILT_SOUL);
  const add = (idle: number) => def.addSession({ source: 'cli', model: 'claude-sonnet-4-5', startedAt: now - 7200, lastActivityAt: now - idle, messages: 4, promptFromCurrentFiles: true });
  const warm = add(60);
  const cold = add(3600);
  const soon = add(200);
  def.writeSoul(`${BUILT_SOUL}Answer in English.\n`);
  return { root: home.root, def, warm, cold, soon };
}

/** The refresh requests state.db holds: `prompt_refresh_epoch` keys to their values. */
export function refreshRequests(dbFile: string): Map<string, string> {
  const db = new Database(dbFile, { readonly: true, fileMustExist: true });
  try {
    const rows = db.prepare("SELECT key, value FROM state_meta WHERE key LIKE 'prompt_refresh_epoch%'").all() as Array<{ key: string; value: unknown }>;
    return new Map(rows.map((r) => [r.key, String(r.value)]));
  } finally {
    db.close();
  }
}
