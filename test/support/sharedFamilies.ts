// Copies of the prefix-families homes Hermes wrote (hermesCorpus.ts), changed as a later state of the
// same home would be, for what the untouched homes cannot show: profiles that share a cache entry.
// - `pinTools`: a `sessions.tool_names` column as Hermes' newer schemas have it (docs/HERMES-FORMATS.md
//   §7), each session pinning what its request carried without the skills toolset (skill_manage's
//   schema names the profile's home): as the sessions of profiles that turn that toolset off pin them.
//   The stored prompts stay as Hermes wrote them.
// - `addRequests`: assistant messages at given times, as Hermes stores one per request.
// - `rebuildWithSoul`: a profile's SOUL.md edited and its sessions' prompts as Hermes rebuilds them
//   after a refresh: the identity block (SOUL.md stripped, which opens the prompt) replaced, stored
//   by its sha256 in `system_prompts`.
// Test copies only: a user's state.db is never altered (docs/RELIABILITY.md).
import Database = require('better-sqlite3');
import { createHash } from 'node:crypto';
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { CorpusHome } from './hermesCorpus';

export const SKILLS_TOOLSET = ['skill_manage', 'skill_view', 'skills_list'];

function eachDb(corpus: CorpusHome, work: (db: Database.Database, profile: string) => void): void {
  for (const profile of Object.keys(corpus.manifest.profiles)) {
    const db = new Database(path.join(corpus.profileDir(profile), 'state.db'));
    try {
      work(db, profile);
    } finally {
      db.close();
    }
  }
}

export function pinTools(corpus: CorpusHome, without: readonly string[] = SKILLS_TOOLSET): void {
  const byId = new Map(corpus.manifest.sessions.map((s) => [s.id, s.wire!.tool_names.filter((t) => !without.includes(t))]));
  eachDb(corpus, (db) => {
    const columns = db.prepare('PRAGMA table_info(sessions)').all() as Array<{ name: string }>;
    if (!columns.some((c) => c.name === 'tool_names')) db.exec('ALTER TABLE sessions ADD COLUMN tool_names TEXT');
    const set = db.prepare('UPDATE sessions SET tool_names = ? WHERE id = ?');
    for (const { id } of db.prepare('SELECT id FROM sessions').all() as Array<{ id: string }>) {
      const names = byId.get(id);
      if (names) set.run(JSON.stringify(names), id);
    }
  });
}

/** Assistant messages (one per request) of `sessionId`, at `times` (epoch seconds); the session's last activity moves to the last. */
export function addRequests(corpus: CorpusHome, sessionId: string, times: readonly number[]): void {
  const session = corpus.manifest.sessions.find((s) => s.id === sessionId)!;
  const db = new Database(path.join(corpus.profileDir(session.profile), 'state.db'));
  try {
    const insert = db.prepare("INSERT INTO messages (session_id, role, content, timestamp) VALUES (?, 'assistant', 'ok', ?)");
    for (const t of times) insert.run(sessionId, t);
    db.prepare('UPDATE sessions SET last_activity_at = MAX(COALESCE(last_activity_at, 0), ?), message_count = message_count + ? WHERE id = ?').run(Math.max(...times), times.length, sessionId);
  } finally {
    db.close();
  }
}

/** `profile`'s SOUL.md becomes `soul`, and its sessions hold the prompts Hermes would build from it. */
export function rebuildWithSoul(corpus: CorpusHome, profile: string, soul: string): void {
  const dir = corpus.profileDir(profile);
  const before = fs.readFileSync(path.join(dir, 'SOUL.md'), 'utf8').trim();
  fs.writeFileSync(path.join(dir, 'SOUL.md'), soul);
  const db = new Database(path.join(dir, 'state.db'));
  try {
    const rows = db.prepare('SELECT s.id AS id, p.prompt AS prompt FROM sessions s JOIN system_prompts p ON p.hash = s.system_prompt_hash').all() as Array<{ id: string; prompt: string }>;
    for (const { id, prompt } of rows) {
      if (!prompt.startsWith(before)) throw new Error(`${id}: the prompt does not open with SOUL.md`);
      const rebuilt = soul.trim() + prompt.slice(before.length);
      const hash = createHash('sha256').update(rebuilt, 'utf8').digest('hex');
      db.prepare('INSERT OR IGNORE INTO system_prompts (hash, prompt) VALUES (?, ?)').run(hash, rebuilt);
      db.prepare('UPDATE sessions SET system_prompt_hash = ? WHERE id = ?').run(hash, id);
    }
  } finally {
    db.close();
  }
}
