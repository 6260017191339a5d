// Large Hermes homes for the benchmarks, made with the demo generator's own pieces (server/demo):
// HomeBuilder for the profile files and projects, buildSystemPrompt for the stored prompts, and the
// simulated Hermes (server/demo/hermes) for the schema and the rows, its writeNewSession run in big
// BEGIN IMMEDIATE transactions on one connection. There is no second schema, no second prompt
// renderer and no second session writer here: only the choice of what to generate.
//
// Homes are cached under os.tmpdir() by size and seed (a `manifest.json` written last marks a
// complete one), so reruns start measuring at once. Benchmarks mutate a home (SOUL.md saves,
// Hermes writes, refresh requests), so they work on a copy of the Hermes root (`workingCopy`).
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import type { ProfileConfig } from '../server/hermes/profile/config';
import { renderSources } from '../server/hermes/sources/renderSources';
import type { RenderedSources } from '../server/hermes/sources/types';
import { buildSystemPrompt } from '../server/hermes/sources/promptBuilder';
import { setStateMeta, SimulatedHermes, writeNewSession, type SchemaLayout, type SessionSpec } from '../server/demo/hermes';
import { HomeBuilder, type ProfileBuilder } from '../server/demo/homeBuilder';
import { defaultProviderFor } from '../server/demo/providers';
import type { Rng } from '../server/demo/prng';
import { newSessionId } from '../server/demo/sessionIds';
import { activeProfileOf, DEMO_HOST, DEMO_USER_HOME } from '../server/demo/sessionPrompt';

/** Bump when what is generated changes, so cached homes of older generators are not reused. */
export const GENERATOR_VERSION = 4;

export interface HomeSize {
  /** `large`, `huge` or `quick`: a label for reports and the cache key. */
  readonly name: string;
  readonly sessions: number;
  /** Sessions still open (`ended_at IS NULL`). */
  readonly live: number;
  readonly messages: number;
  /** Distinct stored prompts (rows of `system_prompts`). */
  readonly prompts: number;
  readonly skills: number;
  /** Of the skills, how many the prompt's index shows (the rest are in `skills.disabled`). */
  readonly visibleSkills: number;
  /** Project directories sessions work in. */
  readonly projects: number;
  /**
   * Where the prompts are stored: `v30` (the default), one `system_prompts` row per
   * distinct text; `v24` (Hermes before v25), a copy inline in every session's row.
   */
  readonly layout?: SchemaLayout;
}

export const SIZES: Readonly<Record<'large' | 'huge' | 'quick' | 'inline', HomeSize>> = {
  large: { name: 'large', sessions: 20_000, live: 2_000, messages: 500_000, prompts: 300, skills: 1_000, visibleSkills: 340, projects: 24 },
  huge: { name: 'huge', sessions: 100_000, live: 5_000, messages: 1_500_000, prompts: 300, skills: 1_000, visibleSkills: 340, projects: 24 },
  quick: { name: 'quick', sessions: 2_000, live: 200, messages: 50_000, prompts: 60, skills: 200, visibleSkills: 120, projects: 8 },
  // The large profile's live sessions and prompts before Hermes' v25: each of its 4,000 sessions
  // holds its own ~30 KB copy of one of the 300 texts (20,000 would make a 600 MB file).
  inline: { name: 'inline', sessions: 4_000, live: 2_000, messages: 100_000, prompts: 300, skills: 1_000, visibleSkills: 340, projects: 24, layout: 'v24' },
};

export interface LargeHome {
  /** The cache directory (holds `hermes/` and `projects/`). */
  readonly dir: string;
  /** The Hermes root (`HERMES_HOME`); its default profile is the large one. */
  readonly root: string;
  readonly profileDir: string;
  readonly dbFile: string;
  readonly size: HomeSize;
  readonly seed: number;
  /** Epoch seconds the home's timestamps are relative to. */
  readonly now: number;
  readonly liveSessionIds: readonly string[];
  /** Live sessions whose prompt is current (a refresh target that changes nothing). */
  readonly distinctPrompts: number;
  readonly averagePromptBytes: number;
  readonly dbBytes: number;
  readonly generatedInMs: number;
}

const DAY = 86_400;
const MODELS: ReadonlyArray<{ model: string; provider?: string }> = [
  { model: 'claude-sonnet-4-5' },
  { model: 'claude-opus-4-5' },
  { model: 'claude-sonnet-4-5' },
  { model: 'gpt-5.1', provider: 'openai' },
  { model: 'gemini-2.5-pro', provider: 'gemini' },
  { model: 'deepseek-chat', provider: 'deepseek' },
  { model: 'my-local-llama', provider: 'custom' },
];
const LOCAL_SOURCES = ['cli', 'cli', 'tui', 'cron', 'subagent'];
const GATEWAY = ['telegram', 'discord', 'slack', 'api_server', 'webhook'];

/** The cached home of `size` and `seed`, generated on first use. */
export function ensureLargeHome(size: HomeSize, seed = 20261129, options: { cacheRoot?: string; log?: (line: string) => void } = {}): LargeHome {
  const cacheRoot = options.cacheRoot ?? path.join(os.tmpdir(), 'hermes-lens-bench');
  const key = `${size.name}-${size.sessions}s-${size.live}l-${size.messages}m-${size.prompts}p-${size.skills}k${size.visibleSkills}v-${size.projects}d${size.layout && size.layout !== 'v30' ? `-${size.layout}` : ''}-seed${seed}-g${GENERATOR_VERSION}`;
  const dir = path.join(cacheRoot, key);
  const manifestFile = path.join(dir, 'manifest.json');
  if (fs.existsSync(manifestFile)) return JSON.parse(fs.readFileSync(manifestFile, 'utf8')) as LargeHome;
  // Homes of older generators are never reused: make room for this one.
  for (const old of fs.existsSync(cacheRoot) ? fs.readdirSync(cacheRoot) : []) {
    if (old.startsWith(`${size.name}-`) && !old.endsWith(`-g${GENERATOR_VERSION}`)) fs.rmSync(path.join(cacheRoot, old), { recursive: true, force: true });
  }
  fs.rmSync(dir, { recursive: true, force: true });
  fs.mkdirSync(dir, { recursive: true });
  options.log?.(`generating the ${size.name} home (${size.sessions} sessions, ${size.messages} messages) in ${dir} …`);
  const home = generate(fs.realpathSync(dir), size, seed);
  fs.writeFileSync(manifestFile, JSON.stringify(home, null, 2) + '\n');
  options.log?.(`  done in ${(home.generatedInMs / 1000).toFixed(1)} s: ${(home.dbBytes / 1e6).toFixed(0)} MB state.db, ${home.distinctPrompts} prompts of ≈${(home.averagePromptBytes / 1000).toFixed(1)} KB`);
  return home;
}

/** A fresh copy of the Hermes root under `into` (project directories stay shared: nothing edits them). */
export function workingCopy(home: LargeHome, into: string): LargeHome {
  fs.rmSync(into, { recursive: true, force: true });
  fs.mkdirSync(into, { recursive: true });
  const root = path.join(fs.realpathSync(into), 'hermes');
  fs.cpSync(home.root, root, { recursive: true });
  return { ...home, dir: into, root, profileDir: root, dbFile: path.join(root, 'state.db') };
}

interface Variant {
  readonly cwd: string | undefined;
  readonly source: string;
  readonly model: string;
  readonly provider: string;
  /** Day the conversations of this prompt started (epoch seconds, midday UTC). */
  readonly day: number;
  readonly prompt: string;
  readonly current: boolean;
}

function generate(dir: string, size: HomeSize, seed: number): LargeHome {
  const started = Date.now();
  const now = Math.floor(Date.now() / 1000);
  const layout = size.layout ?? 'v30';
  const home = HomeBuilder.create(path.join(dir, 'hermes'), { seed, defaultLayout: layout });
  const rng = home.rng;
  const profile = home.profile();
  home.setActiveProfile('default');

  // Profile files as they were when the older prompts were stored.
  const skills = skillSpecs(size, rng);
  const disabled = skills.slice(size.visibleSkills).map((s) => s.name);
  profile.writeConfig({
    model: { default: 'claude-sonnet-4-5', provider: 'anthropic' },
    prompt_caching: { cache_ttl: 'auto' },
    memory: { memory_enabled: true, user_profile_enabled: true },
    skills: { disabled },
  });
  profile.writeSoul(soulText(rng, 0));
  for (const [category, description] of categories(size)) profile.writeCategoryDescription(category, description);
  const skillFiles = skills.map((s) => profile.addSkill(s));
  const memory = memoryEntries(rng);
  profile.writeMemory(memory);
  profile.writeUser(['Name: Dana. Timezone: Europe/Berlin.', 'Prefers short answers that end with the commands to run.', 'Reviews pull requests in the morning; keep afternoon messages brief.']);

  const projects = Array.from({ length: size.projects }, (_, i) => makeProject(home, dir, i, rng));
  const cwds = projects.flatMap((p) => p.cwds);

  // Variants of the stored prompt: 40% built before the edits below (their sessions are stale),
  // the rest after them (fresh). Each differs by cwd, model, platform or day, as real ones do.
  const config = profile.config();
  const variants: Variant[] = [];
  const olderCount = Math.round(size.prompts * 0.4);
  const plan = Array.from({ length: size.prompts }, (_, i) => variantPlan(i, size, cwds, rng, now));
  const seen = new Set<string>();
  const build = (indexes: number[], current: boolean) => {
    const rendered = new Map<string, RenderedSources>();
    for (const i of indexes) {
      let p = plan[i]!;
      const key = p.cwd ?? '';
      let sources = rendered.get(key);
      if (!sources) rendered.set(key, (sources = renderSources({ dir: profile.dir }, config, p.cwd)));
      let prompt = promptOf(profile, config, sources, p);
      // Two variants may coincide (same cwd, model, platform and day): move one a day back.
      while (seen.has(prompt)) {
        p = { ...p, day: p.day - DAY };
        prompt = promptOf(profile, config, sources, p);
      }
      seen.add(prompt);
      variants[i] = { ...p, current, prompt };
    }
  };
  build(range(0, olderCount), false);

  // The edits: SOUL.md gains a paragraph, one skill description changes, memory gains an entry,
  // and a few projects' AGENTS.md change.
  profile.writeSoul(soulText(rng, 1));
  profile.editSkill(skillFiles[3]!, { description: 'Triage an incident: assess impact, page the owners, keep a timeline' });
  profile.writeMemory([...memory, 'The staging cluster moved to eu-west-2 in November.']);
  for (const p of projects.filter((_, i) => i % 5 === 1)) p.edit();
  build(range(olderCount, size.prompts), true);

  const hermes = SimulatedHermes.open(profile.dbFile);
  const liveSessionIds: string[] = [];
  try {
    hermes.db.exec('PRAGMA synchronous=OFF');
    const sessions = sessionPlan(size, variants, rng, now);
    const ids = new Set<string>();
    const batch = 1000;
    for (let from = 0; from < sessions.length; from += batch) {
      hermes.write((db, layout) => {
        for (const s of sessions.slice(from, from + batch)) {
          const v = variants[s.variant]!;
          let id: string;
          do id = newSessionId(v.source, s.startedAt, rng);
          while (ids.has(id));
          ids.add(id);
          if (s.endedAt === undefined) liveSessionIds.push(id);
          writeNewSession({ db, layout, profileDir: profile.dir, config, rng }, sessionSpec(id, v, s, s.parentIndex !== undefined ? sessions[s.parentIndex]!.id : undefined));
          s.id = id;
        }
      });
    }
    // Bookkeeping rows Hermes keeps in state_meta, and a few per-session refresh requests already adopted.
    hermes.write((db) => {
      setStateMeta(db, 'fts_last_rowid', String(size.messages));
      setStateMeta(db, 'fts_schema', '3');
      for (const id of liveSessionIds.slice(0, 10)) setStateMeta(db, `prompt_refresh_epoch:${id}`, '1');
      const stamp = db.prepare("UPDATE sessions SET model_config = json_set(model_config, '$.prompt_refresh_epoch', 1) WHERE id = ?");
      for (const id of liveSessionIds.slice(0, 5)) stamp.run(id);
    });
    hermes.db.exec('PRAGMA wal_checkpoint(TRUNCATE)');
  } finally {
    hermes.close();
  }
  const promptBytes = variants.reduce((n, v) => n + Buffer.byteLength(v.prompt, 'utf8'), 0);
  return {
    dir,
    root: home.root,
    profileDir: profile.dir,
    dbFile: profile.dbFile,
    size,
    seed,
    now,
    liveSessionIds,
    distinctPrompts: new Set(variants.map((v) => v.prompt)).size,
    averagePromptBytes: Math.round(promptBytes / variants.length),
    dbBytes: fs.statSync(profile.dbFile).size,
    generatedInMs: Date.now() - started,
  };
}

function promptOf(profile: ProfileBuilder, config: ProfileConfig, sources: RenderedSources, v: Omit<Variant, 'prompt' | 'current'>): string {
  return buildSystemPrompt({
    sources,
    callerSystemMessage: config.agentSystemPrompt,
    activeProfile: activeProfileOf(profile.dir),
    skillsIndexTier: 'volatile',
    trailer: { startedAt: v.day, now: v.day, model: v.model, provider: v.provider, platform: v.source },
    runtime: { host: DEMO_HOST, home: DEMO_USER_HOME, cwd: v.cwd ?? DEMO_USER_HOME },
  });
}

function variantPlan(i: number, size: HomeSize, cwds: readonly string[], rng: Rng, now: number): Omit<Variant, 'prompt' | 'current'> {
  const gateway = i % 4 === 3;
  const source = gateway ? GATEWAY[i % GATEWAY.length]! : LOCAL_SOURCES[i % LOCAL_SOURCES.length]!;
  const m = MODELS[(i * 7 + (i >> 3)) % MODELS.length]!;
  const older = i < Math.round(size.prompts * 0.4);
  // Older prompts are 10–60 days old, current ones 0–9 days (one date line per day).
  const daysAgo = older ? 10 + (i % 51) : i % 10;
  const day = Math.floor((now - daysAgo * DAY) / DAY) * DAY + DAY / 2;
  return {
    cwd: gateway ? undefined : cwds[(i * 5 + rng.int(0, 2)) % cwds.length],
    source,
    model: m.model,
    provider: m.provider ?? defaultProviderFor(m.model),
    day: Math.min(day, now - 3600),
  };
}

interface PlannedSession {
  readonly variant: number;
  readonly startedAt: number;
  readonly lastActivityAt: number;
  readonly endedAt: number | undefined;
  readonly endReason: string | undefined;
  readonly messages: number;
  readonly compacted: number;
  readonly parentIndex: number | undefined;
  id?: string;
}

/** Which sessions exist: every variant used at least once by a live session, messages spread over all. */
function sessionPlan(size: HomeSize, variants: readonly Variant[], rng: Rng, now: number): PlannedSession[] {
  // Live sessions carry about 30% of the messages, ended ones the rest.
  const liveMessages = Math.round(size.messages * 0.3);
  const counts = spread(rng, size.live, liveMessages).concat(spread(rng, size.sessions - size.live, size.messages - liveMessages));
  const out: PlannedSession[] = [];
  const current = variants.map((v, i) => (v.current ? i : -1)).filter((i) => i >= 0);
  let pendingParent: number | undefined;
  for (let i = 0; i < size.sessions; i++) {
    const live = i < size.live;
    // Live sessions: the first covers every variant, the rest lean to current prompts (70%).
    const variant = live && i < variants.length ? i : rng.chance(0.7) ? rng.pick(current) : rng.int(0, variants.length - 1);
    const v = variants[variant]!;
    const startedAt = v.day - DAY / 2 + rng.int(0, DAY - 7200);
    const messages = counts[i]!;
    const compacted = live && messages > 40 && rng.chance(0.15) ? Math.floor(messages / 3) : 0;
    const span = Math.max(60, messages * 45);
    const recent = rng.chance(0.1) ? now - rng.int(10, 240) : rng.chance(0.5) ? now - rng.int(600, 6 * 3600) : Math.min(now - 60, startedAt + span);
    const endedAt = live ? undefined : Math.min(now - 60, startedAt + span);
    const endReason = live ? undefined : pendingParent === undefined && rng.chance(0.02) ? 'compression' : rng.pick(['cli_close', 'completed', 'idle_timeout']);
    const parentIndex = pendingParent;
    pendingParent = endReason === 'compression' ? out.length : undefined;
    out.push({
      variant,
      startedAt: Math.min(startedAt, now - 3600),
      lastActivityAt: live ? Math.max(recent, Math.min(startedAt, now - 3600) + 1) : endedAt!,
      endedAt,
      endReason,
      messages,
      compacted,
      parentIndex,
    });
  }
  return out;
}

/** A planned session as the simulator writes it: the variant's prompt as stored text, its messages synthesized. */
function sessionSpec(id: string, v: Variant, s: PlannedSession, parentSessionId: string | undefined): SessionSpec {
  return {
    id,
    source: v.source,
    model: v.model,
    provider: v.provider,
    cwd: v.cwd,
    title: `Session ${id.slice(-6)}`,
    startedAt: s.startedAt,
    lastActivityAt: s.lastActivityAt,
    endedAt: s.endedAt,
    endReason: s.endReason,
    parentSessionId,
    messages: s.messages - s.compacted,
    compactedMessages: s.compacted,
    uncountedTokens: v.provider === 'custom',
    promptText: v.prompt,
  };
}

/** `n` positive counts summing to `total`, varying ±60% around the mean. */
function spread(rng: Rng, n: number, total: number): number[] {
  if (n <= 0) return [];
  const mean = total / n;
  const raw = Array.from({ length: n }, () => Math.max(1, Math.round(mean * (0.4 + rng.next() * 1.2))));
  let diff = total - raw.reduce((a, b) => a + b, 0);
  for (let i = 0; diff !== 0; i = (i + 1) % n) {
    const step = diff > 0 ? 1 : raw[i]! > 1 ? -1 : 0;
    raw[i]! += step;
    diff -= step;
  }
  return raw;
}

function range(from: number, to: number): number[] {
  return Array.from({ length: Math.max(0, to - from) }, (_, i) => from + i);
}

// ----- content -----------------------------------------------------------------------------------

const VERBS = ['deploy', 'audit', 'draft', 'review', 'migrate', 'summarise', 'triage', 'profile', 'rotate', 'translate', 'index', 'archive', 'benchmark', 'document', 'schedule', 'reconcile'];
const NOUNS = ['service', 'invoice', 'release', 'schema', 'ticket', 'report', 'cluster', 'dataset', 'budget', 'contract', 'pipeline', 'fixture', 'dashboard', 'backlog', 'runbook', 'changelog'];
const WHAT = ['for the platform team', 'with a rollback plan', 'and cite the sources', 'without downtime', 'in plain language', 'from the weekly notes', 'and flag the risks', 'in one page'];

function categories(size: HomeSize): Array<[string, string]> {
  const n = Math.max(4, Math.round(size.skills / 40));
  return Array.from({ length: n }, (_, i) => [`area-${String(i).padStart(2, '0')}`, `${cap(NOUNS[i % NOUNS.length]!)} work, group ${i}`]);
}

function skillSpecs(size: HomeSize, rng: Rng) {
  const cats = categories(size);
  return Array.from({ length: size.skills }, (_, i) => {
    const verb = VERBS[i % VERBS.length]!;
    const noun = NOUNS[Math.floor(i / VERBS.length) % NOUNS.length]!;
    const category = cats[i % cats.length]![0];
    const name = `${verb}-${noun}-${i}`;
    // Most descriptions fit; every seventh is longer than 60 characters and is cut in the index.
    const description = i % 7 === 0
      ? `${cap(verb)} the ${noun} ${rng.pick(WHAT)}, then check the result twice and write it down`
      : `${cap(verb)} the ${noun} ${rng.pick(WHAT)}`;
    return { category, name, description, body: `# ${name}\n\n1. ${cap(verb)} the ${noun}.\n2. Report what changed.\n` };
  });
}

function soulText(rng: Rng, version: number): string {
  const paragraphs = [
    "You are Hermes, Dana's engineering assistant for the platform team. You work in many repositories at once and keep track of what each one needs.",
  ];
  for (let i = 0; i < 14; i++) {
    paragraphs.push(
      `When you ${VERBS[(i * 3) % VERBS.length]} a ${NOUNS[(i * 5) % NOUNS.length]}, ${rng.pick(['say what you checked', 'show the commands you ran', 'name the files you touched', 'keep the summary short'])}, ` +
        `${rng.pick(['and say plainly when something is unverified.', 'and list the follow-ups at the end.', 'and prefer reversible steps.', 'and ask before anything destructive.'])}`,
    );
  }
  if (version > 0) paragraphs.push('When a change touches production, list the rollback step first.');
  return paragraphs.join('\n\n') + '\n';
}

function memoryEntries(rng: Rng): string[] {
  return Array.from({ length: 12 }, (_, i) => `${cap(NOUNS[i % NOUNS.length]!)} notes: ${rng.pick(WHAT)}; owner team ${String.fromCharCode(65 + (i % 26))}, review on ${['Mondays', 'Wednesdays', 'Fridays'][i % 3]}.`);
}

interface GeneratedProject {
  readonly cwds: string[];
  edit(): void;
}

function makeProject(home: HomeBuilder, dir: string, i: number, rng: Rng): GeneratedProject {
  const name = `p${String(i).padStart(2, '0')}-${NOUNS[i % NOUNS.length]}`;
  const project = home.addProject(path.join(dir, 'projects', name));
  const rules = (n: number) =>
    Array.from({ length: n }, (_, k) => `- ${cap(VERBS[(i + k) % VERBS.length]!)} the ${NOUNS[(i * 3 + k) % NOUNS.length]} ${rng.pick(WHAT)}.`).join('\n');
  const agents = `# ${name}\n\n${cap(NOUNS[i % NOUNS.length]!)} services live under services/, the web app under web/.\n\n## Rules\n\n${rules(24)}\n`;
  const kind = i % 6;
  const cwds = [project.path()];
  if (kind === 5) {
    project.hermesMd('', `---\ntitle: ${name}\n---\n# ${name}\n\n${rules(16)}\n`);
    project.agentsMd('', agents); // shadowed by .hermes.md
  } else if (kind === 4) {
    project.claudeMd('', `# ${name}\n\n${rules(20)}\n`);
  } else {
    project.agentsMd('', agents);
    if (kind <= 1) {
      project.agentsMd('services/api', `# API service\n\n${rules(10)}\n`);
      cwds.push(project.path('services/api'));
    }
  }
  return {
    cwds,
    edit: () => {
      if (kind === 5) project.hermesMd('', `---\ntitle: ${name}\n---\n# ${name}\n\n${rules(16)}\n- Database migrations must be reversible.\n`);
      else if (kind === 4) project.claudeMd('', `# ${name}\n\n${rules(20)}\n- Database migrations must be reversible.\n`);
      else project.agentsMd('', `${agents}- Database migrations must be reversible.\n`);
    },
  };
}

function cap(s: string): string {
  return s.charAt(0).toUpperCase() + s.slice(1);
}

// `node out/bench/largeHome.js [quick|large|huge]` generates (or finds) a cached home and prints it.
if (require.main === module) {
  const name = (process.argv[2] ?? 'large') as keyof typeof SIZES;
  if (!SIZES[name]) throw new Error(`unknown size ${name}: quick, large or huge`);
  process.stdout.write(JSON.stringify(ensureLargeHome(SIZES[name], undefined, { log: (l) => process.stderr.write(l + '\n') }), null, 2) + '\n');
}
