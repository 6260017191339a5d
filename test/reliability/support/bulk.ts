// Many sessions at once for the crash test: Hermes-shaped rows inserted in one transaction on a
// state.db the test created itself (a refresh transaction over thousands of sessions lasts long
// enough for a kill to land inside it). Prompts are shared, as in real homes.
import Database from 'better-sqlite3';
import { promptHash } from '../../../server/hermes/store/promptHash';

export const BULK_PROMPTS = [0, 1, 2].map(
  (i) => `You are Hermes Agent ${i}.\n\n# Guidance\n\nBe brief.\n\nConversation started: Monday, January 05, 2026 (UTC, UTC+00:00)\nModel: claude-sonnet-4-5\nProvider: anthropic`,
);

/** Inserts `n` live sessions (ids `bulk-000001`…), each pointing at one of BULK_PROMPTS. */
export function insertBulkSessions(dbFile: string, n: number, startedAt = 1_790_000_000): string[] {
  const db = new Database(dbFile, { timeout: 1000 });
  const ids: string[] = [];
  try {
    db.pragma('foreign_keys = ON');
    const tx = db.transaction(() => {
      const prompt = db.prepare('INSERT OR IGNORE INTO system_prompts (hash, prompt) VALUES (?, ?)');
      for (const text of BULK_PROMPTS) prompt.run(promptHash(text), text);
      const insert = db.prepare(
        `INSERT INTO sessions (id, source, model, model_config, system_prompt_hash, started_at, last_activity_at, message_count, tool_names)
         VALUES (?, 'cli', 'claude-sonnet-4-5', ?, ?, ?, ?, 0, '[]')`,
      );
      for (let i = 1; i <= n; i++) {
        const id = `bulk-${String(i).padStart(6, '0')}`;
        const config = { model: 'claude-sonnet-4-5', provider: 'anthropic', max_iterations: 60, ...(i % 7 === 0 ? { prompt_refresh_epoch: 1 } : {}) };
        insert.run(id, JSON.stringify(config), promptHash(BULK_PROMPTS[i % 3]!), startedAt + i, startedAt + i);
        ids.push(id);
      }
    });
    tx.immediate();
  } finally {
    db.close();
  }
  return ids;
}

/** What a clear-prompt request changes, put back (as Hermes' rebuild on the next turn would). */
export function restoreBulkPrompts(db: Database.Database): void {
  const update = db.prepare("UPDATE sessions SET system_prompt_hash = ? WHERE id LIKE 'bulk-%' AND CAST(substr(id, 6) AS INTEGER) % 3 = ?");
  db.transaction(() => BULK_PROMPTS.forEach((text, i) => update.run(promptHash(text), i))).immediate();
}
