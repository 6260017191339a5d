// `hermes-lens prompt-size` side by side with Hermes' own `hermes prompt-size`: for a fresh session
// like each live session of the corpus folders one build wrote (same profile, platform, folder and
// day), Hermes' compute_prompt_breakdown (hermes_cli/prompt_size.py) as the corpus scripts recorded
// it at that build (test/fixtures/hermes-builds/prompt-breakdowns.json), against what the lens says
// of the prompt a new session would get, and of the stored session itself.
//
// Two differences are Hermes' prompt-size's own, and the checks name them: its inspection agent has
// no provider, so its prompt lacks the trailer's `Provider:` line every stored prompt of these homes
// carries; and it is built without the interactive CLI's startup, so its CLI tool list lacks the
// tool-search bridge tools (`tool_search`, `tool_describe`, `tool_call`) a CLI session's requests carry.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { CommandIO } from '../../../server/cli/io';
import { runCliNow } from '../../support/cliNow';
import { copyCorpusHome, CORPUS_DIR, type CorpusHome } from '../../support/hermesCorpus';

interface Measure {
  readonly chars: number;
  readonly bytes: number;
}
interface Breakdown {
  readonly platform: string;
  readonly system_prompt: Measure;
  readonly skills_index: Measure;
  readonly memory: Measure;
  readonly user_profile: Measure;
  readonly tools: { readonly count: number; readonly json_bytes: number };
  readonly sections: ReadonlyArray<Measure & { readonly label: string }>;
  readonly skills_breakdown: ReadonlyArray<{ readonly name: string; readonly index_line_bytes: number; readonly index_line_total_bytes: number; readonly index_line_shared_bytes: number; readonly index_line_skill_count: number; readonly skill_md_bytes: number | null; readonly path: string }>;
  readonly toolsets_breakdown: ReadonlyArray<{ readonly toolset: string; readonly tool_count: number; readonly json_bytes: number }>;
}
interface Recorded {
  readonly like_session: string;
  readonly scenario_key: string;
  readonly profile: string;
  readonly platform: string;
  readonly cwd: string;
  readonly at: string;
  readonly breakdown: Breakdown;
}
interface Lens extends Breakdown {
  readonly sessionId: string | null;
  readonly newSession: { readonly fromSession: string; readonly sameFolder: boolean } | null;
  readonly model: string;
  readonly tools: Breakdown['tools'] & { readonly tokens: number; readonly estimated: readonly string[] };
  readonly tool_sizes: { readonly build: string; readonly by: string };
}

const RECORDED = JSON.parse(fs.readFileSync(path.join(CORPUS_DIR, 'prompt-breakdowns.json'), 'utf8')) as { folders: Record<string, { build: string; breakdowns: Recorded[] }> };
const BRIDGE = 'tool_search';

function promptSize(corpus: CorpusHome, r: Recorded, extra: string[]): Lens {
  const out: string[] = [];
  const err: string[] = [];
  const io: CommandIO = { out: (t) => void out.push(t), err: (t) => void err.push(t), env: {}, now: () => Date.parse(r.at) / 1000 };
  const code = runCliNow(['prompt-size', '--home', corpus.home, '-p', r.profile, '--json', ...extra], io);
  assert.equal(code, 0, err.join('\n'));
  return JSON.parse(out.join('\n')) as Lens;
}

/** The bytes of the trailer's `Provider:` line, which Hermes' inspection agent does not write. */
function providerLineBytes(lens: Lens, stored: string): number {
  const line = /\nProvider: [^\n]*/.exec(stored.slice(stored.lastIndexOf('\n\nConversation started: ')));
  return line ? Buffer.byteLength(line[0], 'utf8') : 0;
}

function sameFigures(lens: Lens, hermes: Breakdown, corpus: CorpusHome, providerBytes: number, what: string): void {
  assert.deepEqual(lens.skills_index, { ...hermes.skills_index, tokens: (lens.skills_index as Measure & { tokens: number }).tokens }, `${what}: skills index`);
  assert.equal(lens.memory.bytes, hermes.memory.bytes, `${what}: memory`);
  assert.equal(lens.user_profile.bytes, hermes.user_profile.bytes, `${what}: user profile`);
  assert.equal(lens.system_prompt.bytes, hermes.system_prompt.bytes + providerBytes, `${what}: system prompt (Hermes' inspection agent writes no Provider line: ${providerBytes} bytes)`);
  assert.deepEqual(
    lens.sections.map((s) => [s.label, s.bytes]),
    hermes.sections.map((s, i) => [s.label, s.bytes + (i === 2 ? providerBytes : 0)]),
    `${what}: tiers`,
  );
  assert.deepEqual(
    lens.skills_breakdown.map((s) => ({ ...s, path: s.path && path.relative(corpus.root, s.path) })),
    hermes.skills_breakdown.map((s) => ({ ...s })),
    `${what}: skills by size`,
  );
  // Tool schemas: every toolset Hermes lists, with its tools, within 1% of its bytes. Hermes' registry
  // maps the bridge tools to no toolset (`(unknown)`); the lens names them after their module.
  const lensSets = new Map(lens.toolsets_breakdown.map((t) => [t.toolset, t]));
  const hermesSets = hermes.toolsets_breakdown.map((t) => ({ ...t, toolset: t.toolset === '(unknown)' ? BRIDGE : t.toolset }));
  for (const t of hermesSets) {
    const mine = lensSets.get(t.toolset);
    assert.ok(mine, `${what}: toolset ${t.toolset}`);
    // The bridge's tool_search lists the tools it defers, which differ between the interactive CLI
    // (whose first request the lens's sizes come from) and prompt-size's agent: only its count is Hermes'.
    if (t.toolset === BRIDGE) {
      assert.equal(mine.tool_count, t.tool_count, `${what}: bridge tools`);
      continue;
    }
    assert.equal(mine.tool_count, t.tool_count, `${what}: ${t.toolset} tools`);
    assert.ok(Math.abs(mine.json_bytes - t.json_bytes) <= t.json_bytes * 0.01, `${what}: ${t.toolset} ${mine.json_bytes} bytes against ${t.json_bytes}`);
  }
  // Only the bridge, and only on the CLI, where the interactive CLI's startup adds it.
  const extra = lens.toolsets_breakdown.filter((t) => !hermesSets.some((h) => h.toolset === t.toolset));
  assert.ok(extra.every((t) => t.toolset === BRIDGE && hermes.platform === 'cli'), `${what}: toolsets Hermes' prompt-size lacks: ${extra.map((t) => t.toolset).join(', ')}`);
  const bridge = lensSets.get(BRIDGE)?.json_bytes ?? 0;
  const hermesBridge = hermesSets.find((t) => t.toolset === BRIDGE)?.json_bytes ?? 0;
  assert.ok(Math.abs(lens.tools.json_bytes - bridge - (hermes.tools.json_bytes - hermesBridge)) <= hermes.tools.json_bytes * 0.01, `${what}: tool schemas ${lens.tools.json_bytes} bytes (${bridge} of them the bridge) against ${hermes.tools.json_bytes} (${hermesBridge})`);
  assert.equal(lens.tools.count - extra.reduce((n, t) => n + t.tool_count, 0), hermes.tools.count, `${what}: tools`);
  assert.deepEqual(lens.tools.estimated, [], what);
}

for (const [folder, { build, breakdowns }] of Object.entries(RECORDED.folders)) {
  describe(`conformance: prompt-size beside Hermes' own, home Hermes ${folder} wrote`, function () {
    this.timeout(60000);
    let corpus: CorpusHome;
    before(() => (corpus = copyCorpusHome(folder)));
    after(() => corpus.remove());

    it('a new session: the prompt rendered from today\'s files has the figures Hermes gives, tools by that build\'s sizes', () => {
      assert.ok(breakdowns.length > 0);
      for (const r of breakdowns) {
        const flags = r.platform === 'cli' ? ['--platform', 'cli', '--cwd', corpus.at(r.cwd)] : ['--platform', r.platform];
        const lens = promptSize(corpus, r, flags);
        assert.equal(lens.sessionId, null);
        assert.equal(lens.newSession?.sameFolder, true, `${r.scenario_key}: rendered from a session of that platform and folder`);
        assert.deepEqual([lens.tool_sizes.build, lens.tool_sizes.by], [build, 'prompt'], r.scenario_key);
        const stored = promptSize(corpus, r, ['--session', r.like_session]);
        sameFigures(lens, r.breakdown, corpus, providerLineBytes(lens, storedText(corpus, r)), `${folder} ${r.scenario_key} (new session)`);
        sameFigures(stored, r.breakdown, corpus, providerLineBytes(stored, storedText(corpus, r)), `${folder} ${r.scenario_key} (--session)`);
      }
    });
  });
}

/** The stored prompt of the session a breakdown is like, from the copy's state.db. */
function storedText(corpus: CorpusHome, r: Recorded): string {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const Database = require('better-sqlite3') as typeof import('better-sqlite3');
  const db = new Database(path.join(corpus.profileDir(r.profile), 'state.db'), { readonly: true });
  try {
    const byHash = db.prepare("SELECT 1 FROM sqlite_master WHERE name = 'system_prompts'").get() !== undefined;
    const sql = byHash
      ? 'SELECT COALESCE(p.prompt, s.system_prompt) AS prompt FROM sessions s LEFT JOIN system_prompts p ON p.hash = s.system_prompt_hash WHERE s.id = ?'
      : 'SELECT system_prompt AS prompt FROM sessions WHERE id = ?';
    return (db.prepare(sql).get(r.like_session) as { prompt: string }).prompt;
  } finally {
    db.close();
  }
}
