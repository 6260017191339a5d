// Many sessions at once for the crash test: written by the simulated Hermes in one transaction on a
// state.db the test created itself (a refresh transaction over thousands of sessions lasts long
// enough for a kill to land inside it). Prompts are shared, as in real homes.
import * as path from 'node:path';
import { storePrompt, withSimulatedHermes, writeNewSession } from '../../../server/demo/hermes';
import { createRng } from '../../../server/demo/prng';
import { readProfileConfig } from '../../../server/hermes/profile/config';

export const BULK_PROMPTS = [0, 1, 2].map(
  (i) => `You are Hermes Agent ${i}.\n\n# Guidance\n\nBe brief.\n\nConversation started: Monday, January 05, 2026 (UTC, UTC+00:00)\nModel: claude-sonnet-4-5\nProvider: anthropic`,
);

const bulkId = (i: number) => `bulk-${String(i).padStart(6, '0')}`;

/** Inserts `n` live sessions (ids `bulk-000001`…) without messages, each holding one of BULK_PROMPTS. */
export function insertBulkSessions(dbFile: string, n: number, startedAt = 1_790_000_000): string[] {
  const profileDir = path.dirname(dbFile);
  const config = readProfileConfig(path.join(profileDir, 'config.yaml'));
  const rng = createRng(n);
  return withSimulatedHermes(dbFile, (hermes) =>
    hermes.write((db, layout) =>
      Array.from({ length: n }, (_, k) => {
        const i = k + 1;
        return writeNewSession(
          { db, layout, profileDir, config, rng },
          {
            id: bulkId(i),
            source: 'cli',
            model: 'claude-sonnet-4-5',
            startedAt: startedAt + i,
            lastActivityAt: startedAt + i,
            modelConfig: { max_iterations: 60, ...(i % 7 === 0 ? { prompt_refresh_epoch: 1 } : {}) },
            promptText: BULK_PROMPTS[i % 3]!,
            toolNames: [],
          },
        ).id;
      }),
    ),
  );
}

/** What a clear-prompt request changes, put back (as Hermes' rebuild on the next turn would). */
export function restoreBulkPrompts(dbFile: string): void {
  withSimulatedHermes(dbFile, (hermes) =>
    hermes.write((db, layout) => {
      const ids = db.prepare("SELECT id FROM sessions WHERE id LIKE 'bulk-%'").all().map((r) => String(r.id));
      for (const id of ids) storePrompt(db, layout, id, BULK_PROMPTS[Number(id.slice(5)) % 3]!);
    }),
  );
}
