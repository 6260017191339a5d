// Large Hermes homes for the benchmarks, made with the demo generator's own pieces (server/demo):
// HomeBuilder for the profile files and projects, renderSources for the blocks of the stored prompts,
// and the simulated Hermes (server/demo/hermes) for the schema and the rows, its writeNewSession run
// in big BEGIN IMMEDIATE transactions on one connection. The prompts are arranged in the layouts of
// Hermes builds read from the conformance corpus (corpusBuilds.ts, buildLayoutPrompt.ts): Hermes'
// own prose and placement around the blocks. The home's shape and why: docs/BENCHMARKS.md, "Method".
//
// Homes are cached under os.tmpdir() by size and seed (a `manifest.json` written last marks a
// complete one), so reruns start measuring at once. Benchmarks mutate a home (SOUL.md saves,
// Hermes writes, refresh requests), so they work on a copy of the Hermes root (`workingCopy`).
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { renderSources } from '../server/hermes/sources/renderSources';
import type { RenderedSources } from '../server/hermes/sources/types';
import { setStateMeta, SimulatedHermes, writeNewSession, type SchemaLayout, type SessionSpec } from '../server/demo/hermes';
import { HomeBuilder } from '../server/demo/homeBuilder';
import type { Rng } from '../server/demo/prng';
import { newSessionId } from '../server/demo/sessionIds';
import { activeProfileOf, DEMO_HOST } from '../server/demo/sessionPrompt';
import { buildLayoutPrompt } from './buildLayoutPrompt';
import { CORPUS_BUILDS, readBuildLayout, type BuildLayout, type CorpusBuild } from './corpusBuilds';

/** Bump when what is generated changes, so cached homes of older generators are not reused. */
export const GENERATOR_VERSION = 5;

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

// Distinct prompts are 5% of the sessions, as in homes Hermes' own code wrote: each prompt carries
// its day, model, provider, platform and working directory, so sessions share one only when all match.
export const SIZES: Readonly<Record<'large' | 'huge' | 'quick' | 'inline', HomeSize>> = {
  large: { name: 'large', sessions: 20_000, live: 2_000, messages: 500_000, prompts: 1_000, skills: 400, visibleSkills: 30, projects: 24 },
  huge: { name: 'huge', sessions: 100_000, live: 5_000, messages: 1_500_000, prompts: 5_000, skills: 400, visibleSkills: 30, projects: 40 },
  quick: { name: 'quick', sessions: 2_000, live: 200, messages: 50_000, prompts: 100, skills: 150, visibleSkills: 24, projects: 8 },
  // Before v25 each session's row holds its own copy of its prompt, written by the build of that
  // schema (0.19.1): 4,000 sessions, as 20,000 copies would make a file of several hundred MB.
  inline: { name: 'inline', sessions: 4_000, live: 2_000, messages: 100_000, prompts: 200, skills: 400, visibleSkills: 30, projects: 24, layout: 'v24' },
};

export interface LargeHome {
  /** The cache directory (holds `hermes/`, `projects/` and `userhome/`, the gateway sessions' folder). */
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
  readonly distinctPrompts: number;
  readonly averagePromptBytes: number;
  /** The smallest, median and largest distinct prompt, in bytes. */
  readonly promptBytes: { readonly min: number; readonly median: number; readonly max: number };
  /** Distinct prompts per corpus build whose layout they have. */
  readonly promptsByBuild: Readonly<Partial<Record<CorpusBuild, number>>>;
  readonly dbBytes: number;
  readonly generatedInMs: number;
}

const DAY = 86_400;
/** How far back the home's sessions go; each build wrote an equal stretch of it, the oldest first. */
const DAYS = 60;
const MODELS: ReadonlyArray<{ readonly model: string; readonly provider: string }> = [
  { model: 'anthropic/claude-sonnet-4.6', provider: 'openrouter' },
  { model: 'anthropic/claude-opus-4.8', provider: 'openrouter' },
  { model: 'claude-sonnet-4-5', provider: 'anthropic' },
  { model: 'claude-opus-4-5', provider: 'anthropic' },
  { model: 'openai/gpt-5.5', provider: 'openrouter' },
  { model: 'gpt-5.1', provider: 'openai' },
  { model: 'deepseek-chat', provider: 'deepseek' },
  { model: 'my-local-llama', provider: 'custom' },
];
/**
 * Where sessions come from, by share: the CLI and cron work in folders, the gateway platforms do not.
 * The corpus holds the platform hints of cli and telegram only; the others' prompts carry none.
 */
const PLATFORMS: ReadonlyArray<{ readonly source: string; readonly share: number; readonly gateway: boolean }> = [
  { source: 'cli', share: 0.6, gateway: false },
  { source: 'cron', share: 0.1, gateway: false },
  { source: 'telegram', share: 0.15, gateway: true },
  { source: 'discord', share: 0.08, gateway: true },
  { source: 'slack', share: 0.07, gateway: true },
];
const TIME_ZONE = 'Europe/Berlin';

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
  readonly build: CorpusBuild;
  /** Undefined for gateway sessions (Hermes stores no cwd; their prompt names the user's home). */
  readonly cwd: GeneratedCwd | undefined;
  readonly source: string;
  readonly model: string;
  readonly provider: string;
  /** Day the conversations of this prompt started (epoch seconds, midday UTC). */
  readonly day: number;
  readonly prompt: string;
}

function generate(dir: string, size: HomeSize, seed: number): LargeHome {
  const started = Date.now();
  const now = Math.floor(Date.now() / 1000);
  const layout = size.layout ?? 'v30';
  const home = HomeBuilder.create(path.join(dir, 'hermes'), { seed, defaultLayout: layout });
  const rng = home.rng;
  const profile = home.profile();
  home.setActiveProfile('default');
  const userHome = path.join(dir, 'userhome');
  fs.mkdirSync(userHome, { recursive: true });

  // The profile's files as they are now: every stored prompt was built from them (the home is fresh).
  const skills = skillSpecs(size, rng);
  profile.writeConfig({
    model: { default: 'anthropic/claude-sonnet-4.6', provider: 'openrouter' },
    timezone: TIME_ZONE,
    prompt_caching: { cache_ttl: 'auto' },
    memory: { memory_enabled: true, user_profile_enabled: true },
    skills: { disabled: skills.slice(size.visibleSkills).map((s) => s.name) },
  });
  profile.writeSoul(soulText(rng));
  for (const [category, description] of categories(size)) profile.writeCategoryDescription(category, description);
  for (const skill of skills) profile.addSkill(skill);
  profile.writeMemory(memoryEntries(rng));
  profile.writeUser(['Name: Dana. Timezone: Europe/Berlin.', 'Prefers short answers that end with the commands to run.', 'Reviews pull requests in the morning; keep afternoon messages brief.', 'Works on a laptop with 16 GB; long builds run on the shared CI runners.']);
  const cwds = Array.from({ length: size.projects }, (_, i) => makeProject(home, dir, i, rng)).flat();

  // Before v25 (layout v24) only the build of that schema wrote prompts; later homes hold all three.
  const builds = (layout === 'v24' ? CORPUS_BUILDS.slice(0, 1) : CORPUS_BUILDS).map(readBuildLayout);
  const config = profile.config();
  const rendered = new Map<string, RenderedSources>();
  const sourcesFor = (cwd: string | undefined) => {
    let sources = rendered.get(cwd ?? '');
    if (!sources) rendered.set(cwd ?? '', (sources = renderSources({ dir: profile.dir }, config, cwd)));
    return sources;
  };
  const seen = new Set<string>();
  const variants: Variant[] = [];
  while (variants.length < size.prompts) {
    const plan = variantPlan(builds.length, cwds, rng, now);
    const key = `${plan.build}|${plan.day}|${plan.model}|${plan.provider}|${plan.source}|${plan.cwd?.dir ?? ''}`;
    if (seen.has(key)) continue; // two sessions with all of these alike share their prompt
    seen.add(key);
    const build = builds[plan.build]!;
    variants.push({ ...plan, build: build.build, prompt: promptOf(build, sourcesFor(plan.cwd?.dir), plan, profile.dir, userHome) });
  }

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
  const bytes = variants.map((v) => Buffer.byteLength(v.prompt, 'utf8')).sort((a, b) => a - b);
  const promptsByBuild: Partial<Record<CorpusBuild, number>> = {};
  for (const v of variants) promptsByBuild[v.build] = (promptsByBuild[v.build] ?? 0) + 1;
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
    averagePromptBytes: Math.round(bytes.reduce((a, b) => a + b, 0) / bytes.length),
    promptBytes: { min: bytes[0]!, median: bytes[Math.floor(bytes.length / 2)]!, max: bytes[bytes.length - 1]! },
    promptsByBuild,
    dbBytes: fs.statSync(profile.dbFile).size,
    generatedInMs: Date.now() - started,
  };
}

type VariantPlan = Omit<Variant, 'prompt' | 'build'> & { readonly build: number };

function promptOf(build: BuildLayout, sources: RenderedSources, v: VariantPlan, profileDir: string, userHome: string): string {
  return buildLayoutPrompt(build, sources, {
    cwd: v.cwd?.dir ?? userHome,
    workspace: v.cwd?.workspace,
    host: DEMO_HOST,
    userHome,
    activeProfile: activeProfileOf(profileDir),
    model: v.model,
    provider: v.provider,
    platform: v.source,
    startedAt: v.day,
    timeZone: TIME_ZONE,
  });
}

/** One prompt's inputs, drawn at random: a day of the last DAYS (its build follows), a platform, a model, a folder. */
function variantPlan(builds: number, cwds: readonly GeneratedCwd[], rng: Rng, now: number): VariantPlan {
  const daysAgo = rng.int(0, DAYS - 1);
  const build = Math.min(builds - 1, Math.floor(((DAYS - 1 - daysAgo) * builds) / DAYS));
  let r = rng.next();
  const platform = PLATFORMS.find((p) => (r -= p.share) < 0) ?? PLATFORMS[0]!;
  const m = rng.pick(MODELS);
  const day = Math.floor((now - daysAgo * DAY) / DAY) * DAY + DAY / 2;
  return {
    build,
    cwd: platform.gateway ? undefined : rng.pick(cwds),
    source: platform.source,
    model: m.model,
    provider: m.provider,
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
  let pendingParent: number | undefined;
  for (let i = 0; i < size.sessions; i++) {
    const live = i < size.live;
    // The first live sessions cover every variant (status reads each live prompt), the rest are drawn.
    const variant = live && i < variants.length ? i : rng.int(0, variants.length - 1);
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
    cwd: v.cwd?.dir,
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

function soulText(rng: Rng): string {
  const paragraphs = [
    "# Hermes for Dana\n\nYou are Hermes, Dana's engineering assistant for the platform team. You work in many repositories at once and keep track of what each one needs.",
  ];
  for (let i = 0; i < 6; i++) {
    paragraphs.push(
      `When you ${VERBS[(i * 3) % VERBS.length]} a ${NOUNS[(i * 5) % NOUNS.length]}, ${rng.pick(['say what you checked', 'show the commands you ran', 'name the files you touched', 'keep the summary short'])}, ` +
        `${rng.pick(['and say plainly when something is unverified.', 'and list the follow-ups at the end.', 'and prefer reversible steps.', 'and ask before anything destructive.'])}`,
    );
  }
  return paragraphs.join('\n\n') + '\n';
}

function memoryEntries(rng: Rng): string[] {
  return Array.from({ length: 8 }, (_, i) => `${cap(NOUNS[i % NOUNS.length]!)} notes: ${rng.pick(WHAT)}; owner team ${String.fromCharCode(65 + (i % 26))}, review on ${['Mondays', 'Wednesdays', 'Fridays'][i % 3]}.`);
}

/** A folder sessions work in, with the workspace snapshot Hermes writes for it (none outside a workspace). */
interface GeneratedCwd {
  readonly dir: string;
  readonly workspace?: { readonly root: string; readonly git: boolean; readonly contextFiles: readonly string[] };
}

/**
 * A project of one of six kinds, as Hermes meets them: AGENTS.md at the git root and in a
 * sub-folder (a chain for 0.20.3, the folder's own file for older builds), AGENTS.md alone, CLAUDE.md,
 * `.hermes.md` shadowing an AGENTS.md, AGENTS.md outside git, and a scratch folder with no git root
 * and no context file. Context files range from about 0.5 to 18 KB (Hermes cuts at 20,000
 * characters), which spreads the prompts' sizes.
 */
function makeProject(home: HomeBuilder, dir: string, i: number, rng: Rng): GeneratedCwd[] {
  const kind = i % 8;
  const name = `p${String(i).padStart(2, '0')}-${NOUNS[i % NOUNS.length]}`;
  const project = home.addProject(path.join(dir, 'projects', name), { git: kind < 6 });
  const rules = (n: number) =>
    Array.from({ length: n }, (_, k) => `- ${cap(VERBS[(i + k) % VERBS.length]!)} the ${NOUNS[(i * 3 + k) % NOUNS.length]} ${rng.pick(WHAT)}.`).join('\n');
  const agents = (n: number) => `# ${name}\n\n${cap(NOUNS[i % NOUNS.length]!)} services live under services/, the web app under web/.\n\n## Rules\n\n${rules(n)}\n`;
  // Rules of 40 to 50 characters: 8 to 387 of them in a single file, up to 150 in a chain.
  const single = 8 + ((i * 89) % 380);
  const root = project.path();
  const ws = (contextFiles: string[], git = kind < 6) => ({ root, git, contextFiles });
  switch (kind) {
    case 0:
    case 1:
      project.agentsMd('', agents(10 + ((i * 37) % 100)));
      project.agentsMd('services/api', `# API service\n\n${rules(10 + ((i * 13) % 30))}\n`);
      return [
        { dir: root, workspace: ws(['AGENTS.md']) },
        { dir: project.path('services/api'), workspace: ws(['AGENTS.md']) },
      ];
    case 2:
    case 3:
      project.agentsMd('', agents(single));
      return [{ dir: root, workspace: ws(['AGENTS.md']) }];
    case 4:
      project.claudeMd('', `# ${name}\n\n${rules(single)}\n`);
      return [{ dir: root, workspace: ws(['CLAUDE.md']) }];
    case 5:
      project.hermesMd('', `---\ntitle: ${name}\n---\n# ${name}\n\n${rules(single)}\n`);
      project.agentsMd('', agents(24)); // shadowed by .hermes.md
      return [{ dir: root, workspace: ws(['AGENTS.md']) }];
    case 6:
      project.agentsMd('', agents(single));
      return [{ dir: root, workspace: ws(['AGENTS.md'], false) }];
    default:
      // A scratch folder: no git root, no context file, so no workspace snapshot and no coding brief.
      return [{ dir: root }];
  }
}

function cap(s: string): string {
  return s.charAt(0).toUpperCase() + s.slice(1);
}

// `node out/bench/largeHome.js [quick|large|huge]` generates (or finds) a cached home and prints it.
if (require.main === module) {
  const name = (process.argv[2] ?? 'large') as keyof typeof SIZES;
  if (!SIZES[name]) throw new Error(`unknown size ${name}: quick, large, huge or inline`);
  process.stdout.write(JSON.stringify(ensureLargeHome(SIZES[name], undefined, { log: (l) => process.stderr.write(l + '\n') }), null, 2) + '\n');
}
