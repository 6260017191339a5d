// The layout of a Hermes build as its own code wrote it: the prose around the blocks our sources
// render (guidance, the skills index's heading and closing words, the coding brief, platform hints)
// and where those blocks sit, read from the homes in test/fixtures/hermes-builds. The bench home's
// prompts are arranged in these layouts (buildLayoutPrompt.ts), so the engine meets Hermes' own text
// and placement, not only the lens's renderer. Cut by the literals every build writes, with plain
// string searches (never the engine's parser, which is what the bench home is meant to test).
import Database = require('better-sqlite3');
import * as fs from 'node:fs';
import * as path from 'node:path';
import { ACTIVE_PROFILE, CONVERSATION_STARTED, PROJECT_CONTEXT_PREFIX, SKILLS_CLOSE, SKILLS_OPEN, WORKSPACE_SNAPSHOT } from '../server/hermes/literals/containers';
import { CORPUS_DIR, type CorpusManifest } from '../test/support/hermesCorpus';

/** The corpus folders whose layouts the bench home uses, oldest build first (docs/HERMES-FORMATS.md §0). */
export const CORPUS_BUILDS = ['v0.19.1-schema24', 'v0.20.0-schema25', 'v0.20.3-schema26'] as const;
export type CorpusBuild = (typeof CORPUS_BUILDS)[number];

export interface BuildLayout {
  readonly build: CorpusBuild;
  /** The stable-tier prose between SOUL.md and the skills index (or the `Host:` lines). */
  readonly guidance: string;
  /** The blocks a GPT model adds after the guidance (`# Tool-use enforcement`, `# Execution discipline`). */
  readonly gptGuidance: string;
  /** The skills index up to `<available_skills>`, and from `</available_skills>` to its last sentence. */
  readonly skillsHead: string;
  readonly skillsTail: string;
  /** 0.19.1 keeps the index in the stable tier before the `Host:` lines; later builds open the volatile tier with it. */
  readonly skillsTier: 'stable' | 'volatile';
  /** The coding brief of sessions in a workspace (several paragraphs, after the `Host:` lines). */
  readonly codingBrief: string;
  /** The first line of the workspace snapshot. */
  readonly workspaceHeading: string;
  /** The machine's toolchain line (`Python toolchain: …`). */
  readonly toolchain: string;
  /** Platform hints the corpus shows, by platform (cli, telegram). */
  readonly platformHints: Readonly<Record<string, string>>;
  /** 0.20.3 writes the zone after the start date. */
  readonly zoneInTrailer: boolean;
  /** 0.20.3 loads the AGENTS.md chain from the git root down; older builds only the session folder's file. */
  readonly readsParentFolders: boolean;
}

/** The layout of one corpus build, from the default profile's stored prompts. */
export function readBuildLayout(build: CorpusBuild): BuildLayout {
  const folder = path.join(CORPUS_DIR, build);
  const manifest = JSON.parse(fs.readFileSync(path.join(folder, 'manifest.json'), 'utf8')) as CorpusManifest;
  const soul = fs.readFileSync(path.join(folder, 'home', 'SOUL.md'), 'utf8').trim();
  const prompts = storedPrompts(path.join(folder, 'home', 'state.db'));
  const promptOf = (key: string) => {
    const session = manifest.sessions.find((s) => s.scenario_key === key && s.profile === 'default');
    const prompt = session && prompts.get(session.id);
    if (!prompt?.startsWith(`${soul}\n\n`)) throw new Error(`${build}: no stored prompt opening with SOUL.md for the ${key} session`);
    return prompt;
  };
  // A CLI session at a git root with an AGENTS.md: every part but the GPT blocks.
  const repo = promptOf('a-root');
  const skillsAt = headingBefore(repo, repo.indexOf(SKILLS_OPEN));
  const hostAt = at(repo, '\n\nHost: ') + 2;
  const skillsTier = skillsAt < hostAt ? 'stable' : 'volatile';
  const guidance = repo.slice(soul.length + 2, (skillsTier === 'stable' ? skillsAt : hostAt) - 2);
  const closeAt = at(repo, SKILLS_CLOSE);
  const hostEnd = paragraphEnd(repo, hostAt);
  const workspaceAt = at(repo, `\n\n${WORKSPACE_SNAPSHOT}`) + 2;

  // The /model switch to a GPT model: the same guidance, then the blocks such models get.
  const gpt = promptOf('model');
  if (!gpt.startsWith(`${soul}\n\n${guidance}\n\n`)) throw new Error(`${build}: the GPT session's guidance does not open with the others'`);
  const gptFrom = soul.length + guidance.length + 4;
  const gptTo = skillsTier === 'stable' ? headingBefore(gpt, gpt.indexOf(SKILLS_OPEN)) : at(gpt, '\n\nHost: ') + 2;

  return {
    build,
    guidance,
    gptGuidance: gpt.slice(gptFrom, gptTo - 2),
    skillsHead: repo.slice(skillsAt, repo.indexOf(SKILLS_OPEN)),
    skillsTail: repo.slice(closeAt, paragraphEnd(repo, closeAt + SKILLS_CLOSE.length + 2)),
    skillsTier,
    codingBrief: repo.slice(hostEnd + 2, workspaceAt - 2),
    workspaceHeading: repo.slice(workspaceAt, repo.indexOf('\n', workspaceAt)),
    toolchain: paragraphStarting(repo, 'Python toolchain: '),
    platformHints: { cli: hintAfterProfileLine(repo), telegram: hintAfterProfileLine(promptOf('telegram')) },
    zoneInTrailer: / \(.*\)$/m.test(paragraphStarting(repo, CONVERSATION_STARTED).split('\n', 1)[0]!),
    readsParentFolders: promptOf('a-pkg').includes('\n\n## ../'),
  };
}

/** Every stored prompt of a state.db by session id, inline (schema 24) or in `system_prompts`. */
function storedPrompts(dbFile: string): Map<string, string> {
  const db = new Database(dbFile, { readonly: true, fileMustExist: true });
  try {
    const byHash = (db.prepare("SELECT COUNT(*) AS n FROM sqlite_master WHERE name = 'system_prompts'").get() as { n: number }).n > 0;
    const sql = byHash
      ? 'SELECT s.id, COALESCE(p.prompt, s.system_prompt) AS prompt FROM sessions s LEFT JOIN system_prompts p ON p.hash = s.system_prompt_hash'
      : 'SELECT id, system_prompt AS prompt FROM sessions';
    return new Map((db.prepare(sql).all() as Array<{ id: string; prompt: string | null }>).map((r) => [r.id, r.prompt ?? '']));
  } finally {
    db.close();
  }
}

function at(text: string, literal: string, from = 0): number {
  const i = text.indexOf(literal, from);
  if (i < 0) throw new Error(`the corpus prompt has no ${JSON.stringify(literal.trim())}`);
  return i;
}

/** Where the `## …` heading of the paragraph holding `index` starts. */
function headingBefore(text: string, index: number): number {
  if (index < 0) throw new Error('the corpus prompt has no skills index');
  return text.lastIndexOf('\n\n## ', index) + 2;
}

/** The end of the paragraph that starts at (or holds) `from`. */
function paragraphEnd(text: string, from: number): number {
  const end = text.indexOf('\n\n', from);
  return end < 0 ? text.length : end;
}

function paragraphStarting(text: string, opening: string): string {
  const start = text.startsWith(opening) ? 0 : at(text, `\n\n${opening}`) + 2;
  return text.slice(start, paragraphEnd(text, start));
}

/** The platform hint: the paragraph after the active-profile line, before the project context or the next tier. */
function hintAfterProfileLine(prompt: string): string {
  const profileLine = at(prompt, `\n\n${ACTIVE_PROFILE}`) + 2;
  const hintAt = paragraphEnd(prompt, profileLine) + 2;
  const hint = prompt.slice(hintAt, paragraphEnd(prompt, hintAt));
  if (hint.startsWith(PROJECT_CONTEXT_PREFIX.slice(0, 10)) || hint.startsWith('## ')) throw new Error('the corpus prompt has no platform hint after its profile line');
  return hint;
}
