// The demo Hermes home: the README demo, `hermes-lens demo`, and the default test fixture. It is
// built in the order things happen to a real user: prompts are stored, then files are edited, then
// a refresh is requested and partly adopted, then new sessions start. So every state the lens
// shows is present, and the manifest says which one each session must be in, and why.
import fs = require('node:fs');
import path = require('node:path');
import type { SessionState, SourceKind } from '../hermes/model';
import { PROFILE_EPOCH_KEY, sessionEpochKey } from '../hermes/refresh/epochs';
import * as C from './demoContent';
import type { SchemaLayout } from './hermes/schema';
import { HomeBuilder, type ProfileBuilder } from './homeBuilder';
import { defaultProviderFor } from './providers';
import type { SessionSpec } from './hermes/sessions';
import { adoptRefresh, appendMessages } from './hermes/simulatedHermes';

export interface DemoProfile {
  readonly name: string;
  readonly dir: string;
  readonly dbFile: string;
  readonly layout: SchemaLayout;
  readonly isActive: boolean;
  /** `state_meta['prompt_refresh_epoch']` (0 when unset). */
  readonly requestedEpoch: number;
}

export interface DemoReason {
  readonly source: SourceKind;
  /** The file whose edit makes the stored prompt differ. */
  readonly path: string;
}

export interface DemoSession {
  readonly id: string;
  /** A stable name for the session's role in the demo, e.g. `chain-tip`. */
  readonly label: string;
  readonly profile: string;
  readonly source: string;
  readonly model: string;
  readonly provider: string;
  readonly cwd: string | undefined;
  readonly state: SessionState;
  /** Every source whose rendering today differs from the stored prompt (also for ended/pending ones). */
  readonly reasons: readonly DemoReason[];
  /** The same, as sorted unique source kinds. */
  readonly reasonSources: readonly SourceKind[];
  readonly promptStorage: 'hash' | 'inline' | 'none';
  readonly skillsIndexTier: 'stable' | 'volatile' | undefined;
  readonly startedAt: number;
  readonly lastActivityAt: number;
  readonly endedAt: number | undefined;
  readonly billingMode: string | undefined;
  readonly parentSessionId: string | undefined;
  /** For the ended parent of the compaction chain: where the conversation continues. */
  readonly tipSessionId: string | undefined;
  readonly requestedEpoch: number;
  readonly stampedEpoch: number;
}

export interface DemoManifest {
  readonly dir: string;
  /** The root home (`HERMES_HOME`). */
  readonly root: string;
  readonly seed: number;
  readonly now: number;
  readonly activeProfile: string;
  readonly profiles: readonly DemoProfile[];
  readonly projects: { readonly atlas: string; readonly atlasApi: string; readonly beacon: string };
  /** Files edited after prompts were stored, and whether the edit reaches any prompt. */
  readonly edits: ReadonlyArray<{ readonly file: string; readonly source: SourceKind; readonly changesPrompts: boolean; readonly note: string }>;
  /** Per session id. */
  readonly sessions: Readonly<Record<string, DemoSession>>;
  /** Session id by label. */
  readonly labels: Readonly<Record<string, string>>;
}

export interface DemoOptions {
  /** Epoch seconds the demo is relative to; defaults to now. */
  readonly now?: number;
  readonly seed?: number;
  /** Also write `<dir>/demo-manifest.json` (default true). */
  readonly writeManifest?: boolean;
}

const MIN = 60;
const HOUR = 3600;
const DAY = 86400;

type Phase = 'before-edits' | 'after-edits';

interface Plan {
  readonly label: string;
  readonly profile: 'default' | 'work';
  readonly phase: Phase;
  /** Parent by label. */
  readonly parent?: string;
  readonly spec: Omit<SessionSpec, 'parentSessionId'>;
  readonly state: SessionState;
  readonly reasons: readonly SourceKind[];
}

/** Builds the demo under `dir` (which should be empty): `<dir>/hermes` and `<dir>/projects`. */
export function generateDemoHome(dir: string, options: DemoOptions = {}): DemoManifest {
  const now = options.now ?? Date.now() / 1000;
  const seed = options.seed ?? 20261129;
  fs.mkdirSync(dir, { recursive: true });
  // Hermes and the lens resolve symlinks in cwd (macOS /tmp is /private/tmp): use the real path.
  const base = fs.realpathSync(dir);
  const root = path.join(base, 'hermes');
  const home = HomeBuilder.create(root, { seed, defaultLayout: 'v30' });
  const def = home.profile();
  const work = home.addProfile('work', { layout: 'v24' });
  home.setActiveProfile('default');

  const atlas = home.addProject(path.join(base, 'projects', 'atlas'));
  const atlasAgents = atlas.agentsMd('', C.ATLAS_AGENTS);
  atlas.agentsMd('services/api', C.ATLAS_API_AGENTS);
  const beacon = home.addProject(path.join(base, 'projects', 'beacon'));
  beacon.hermesMd('', C.BEACON_HERMES_MD);
  const beaconAgents = beacon.agentsMd('', C.BEACON_AGENTS);
  const cwd = { atlas: atlas.path(), atlasApi: atlas.path('services/api'), beacon: beacon.path() };

  def.writeConfig(C.DEFAULT_CONFIG).writeSoul(C.DEFAULT_SOUL);
  for (const [category, description] of C.CATEGORY_DESCRIPTIONS) def.writeCategoryDescription(category, description);
  const skillFiles = new Map(C.DEFAULT_SKILLS.map((s) => [s.name, def.addSkill(s)]));
  def.writeMemory(C.DEFAULT_MEMORY);
  def.writeUser(C.DEFAULT_USER);

  work.writeConfig(C.WORK_CONFIG).writeSoul(C.WORK_SOUL);
  work.writeCategoryDescription('ops', 'Acme operations');
  for (const s of C.WORK_SKILLS) work.addSkill(s);
  const workMemory = work.writeMemory(C.WORK_MEMORY);
  work.writeUser(C.WORK_USER);

  const reasonPath: Partial<Record<SourceKind, string>> = {
    soul: path.join(def.dir, 'SOUL.md'),
    skill: skillFiles.get(C.EDITED_DESCRIPTION_SKILL),
    'project-context': atlasAgents,
    memory: workMemory,
  };
  const plans = demoPlans(now, cwd);
  const ids = new Map<string, string>();
  const profiles: Record<'default' | 'work', ProfileBuilder> = { default: def, work };
  const create = (plan: Plan) => {
    const parentSessionId = plan.parent ? ids.get(plan.parent) : undefined;
    const modelConfig = plan.spec.modelConfig && parentSessionId ? withLineage(plan.spec.modelConfig, parentSessionId) : plan.spec.modelConfig;
    ids.set(plan.label, profiles[plan.profile].addSession({ ...plan.spec, modelConfig, parentSessionId }));
  };

  // 1. Sessions whose prompts were stored before the edits.
  for (const plan of plans.filter((p) => p.phase === 'before-edits')) create(plan);
  const adoptedLabel = 'work-atlas-adopted';

  // 2. The edits.
  def.writeSoul(C.DEFAULT_SOUL_EDITED);
  def.editSkill(skillFiles.get(C.EDITED_DESCRIPTION_SKILL)!, { description: C.EDITED_DESCRIPTION });
  def.editSkill(skillFiles.get(C.EDITED_BODY_SKILL)!, { body: C.EDITED_BODY });
  atlas.agentsMd('', C.ATLAS_AGENTS_EDITED);
  beacon.agentsMd('', C.BEACON_AGENTS_EDITED);
  work.writeMemory([...C.WORK_MEMORY, C.WORK_MEMORY_ADDED]);

  // 3. Refresh requests: one session of `default`, and the whole `work` profile (one more than its
  //    largest stamp, 1), of which one session has already rebuilt and stamped epoch 2.
  def.setStateMeta(sessionEpochKey(ids.get('discord-gemini')!), '1');
  work.setStateMeta(PROFILE_EPOCH_KEY, '2');
  adoptRefresh(work.dbFile, ids.get(adoptedLabel)!, work.dir, work.config(), { builtAt: now - 21 * MIN });
  appendMessages(work.dbFile, ids.get(adoptedLabel)!, 2, { now: now - 20 * MIN, seed: seed + 1 });

  // 4. Sessions started after the edits (fresh; in `work` they stamp the requested epoch).
  for (const plan of plans.filter((p) => p.phase === 'after-edits')) create(plan);

  const sessions: Record<string, DemoSession> = {};
  const requested = { default: 0, work: 2 };
  for (const plan of plans) {
    const id = ids.get(plan.label)!;
    const spec = plan.spec;
    const stamped = plan.label === adoptedLabel || (plan.profile === 'work' && plan.phase === 'after-edits') ? 2 : Number(spec.modelConfig?.prompt_refresh_epoch ?? 0);
    const hasPrompt = Boolean(spec.promptFromCurrentFiles || spec.promptText);
    const layout = plan.profile === 'work' ? 'v24' : (spec.layout ?? 'v30');
    const reasons = plan.reasons.map((source) => ({ source, path: reasonPath[source]! }));
    sessions[id] = {
      id,
      label: plan.label,
      profile: plan.profile,
      source: spec.source,
      model: spec.model,
      provider: spec.provider ?? defaultProviderFor(spec.model),
      cwd: spec.cwd,
      state: plan.state,
      reasons,
      reasonSources: [...new Set(plan.reasons)].sort(),
      promptStorage: !hasPrompt ? 'none' : layout === 'v30' ? 'hash' : 'inline',
      skillsIndexTier: hasPrompt ? (plan.label === adoptedLabel ? 'volatile' : (spec.skillsIndexTier ?? 'volatile')) : undefined,
      startedAt: spec.startedAt,
      lastActivityAt: plan.label === adoptedLabel ? now - 20 * MIN : spec.lastActivityAt!,
      endedAt: spec.endedAt,
      billingMode: spec.billingMode,
      parentSessionId: plan.parent ? ids.get(plan.parent) : undefined,
      tipSessionId: plan.label === 'chain-parent' ? ids.get('chain-tip') : undefined,
      requestedEpoch: plan.label === 'discord-gemini' ? 1 : requested[plan.profile],
      stampedEpoch: stamped,
    };
  }

  const manifest: DemoManifest = {
    dir: base,
    root,
    seed,
    now,
    activeProfile: 'default',
    profiles: [
      { name: 'default', dir: def.dir, dbFile: def.dbFile, layout: def.layout, isActive: true, requestedEpoch: 0 },
      { name: 'work', dir: work.dir, dbFile: work.dbFile, layout: work.layout, isActive: false, requestedEpoch: 2 },
    ],
    projects: cwd,
    edits: [
      { file: path.join(def.dir, 'SOUL.md'), source: 'soul', changesPrompts: true, note: 'persona edited' },
      { file: skillFiles.get(C.EDITED_DESCRIPTION_SKILL)!, source: 'skill', changesPrompts: true, note: 'description edited' },
      { file: skillFiles.get(C.EDITED_BODY_SKILL)!, source: 'skill', changesPrompts: false, note: 'body edited: not in the prompt' },
      { file: atlasAgents, source: 'project-context', changesPrompts: true, note: 'root AGENTS.md of atlas edited' },
      { file: beaconAgents, source: 'project-context', changesPrompts: false, note: 'shadowed by .hermes.md: not loaded' },
      { file: workMemory, source: 'memory', changesPrompts: true, note: 'entry added (work profile)' },
    ],
    sessions,
    labels: Object.fromEntries(ids),
  };
  if (options.writeManifest ?? true) fs.writeFileSync(path.join(base, 'demo-manifest.json'), JSON.stringify(manifest, null, 2) + '\n');
  return manifest;
}

/** `{_branched_from: '<parent>'}` style markers name the parent's id, known only once it exists. */
function withLineage(modelConfig: Readonly<Record<string, unknown>>, parentId: string): Record<string, unknown> {
  const out: Record<string, unknown> = { ...modelConfig };
  for (const marker of ['_branched_from', '_delegate_from', '_reset_from']) if (out[marker] === PARENT) out[marker] = parentId;
  return out;
}

/** Placeholder for the parent's id in a plan's lineage marker. */
const PARENT = '<parent>';

/** Every session of the demo, in creation order. */
function demoPlans(now: number, cwd: { atlas: string; atlasApi: string; beacon: string }): Plan[] {
  const fromFiles = { promptFromCurrentFiles: true } as const;
  const sdk: ReadonlyArray<SourceKind> = ['soul', 'skill'];
  const sdkp: ReadonlyArray<SourceKind> = ['soul', 'skill', 'project-context'];
  const before = (label: string, profile: Plan['profile'], spec: Plan['spec'], state: SessionState, reasons: readonly SourceKind[], parent?: string): Plan => ({
    label, profile, phase: 'before-edits', spec: { ...fromFiles, ...spec }, state, reasons, ...(parent ? { parent } : {}),
  });
  const after = (label: string, profile: Plan['profile'], spec: Plan['spec']): Plan => ({
    label, profile, phase: 'after-edits', spec: { ...fromFiles, ...spec }, state: 'fresh', reasons: [],
  });
  return [
    // default profile (v30: prompts out of line by hash)
    before('atlas-api-cli', 'default', { source: 'cli', model: 'claude-opus-4-5', cwd: cwd.atlasApi, title: 'Speed up the nightly export', startedAt: now - 26 * HOUR, lastActivityAt: now - 2 * MIN, messages: 24, compactedMessages: 10 }, 'stale', sdkp),
    before('atlas-tui', 'default', { source: 'tui', model: 'claude-sonnet-4-5', cwd: cwd.atlas, title: 'Review the deploy pipeline', startedAt: now - 6 * HOUR, lastActivityAt: now - 20 * MIN, messages: 12 }, 'stale', sdkp),
    before('telegram-gpt', 'default', { source: 'telegram', model: 'gpt-5.1', provider: 'openai', title: 'Weekly PR summary', startedAt: now - 2 * DAY, lastActivityAt: now - 5 * HOUR, messages: 16, skillsIndexTier: 'stable', passSessionId: true }, 'stale', sdk),
    before('discord-gemini', 'default', { source: 'discord', model: 'gemini-2.5-pro', provider: 'gemini', title: 'Translate the release notes', startedAt: now - 9 * HOUR, lastActivityAt: now - 3 * HOUR, messages: 8 }, 'pending', sdk),
    before('slack-deepseek', 'default', { source: 'slack', model: 'deepseek-chat', provider: 'deepseek', title: 'Error budget check', startedAt: now - 7 * HOUR, lastActivityAt: now - 20 * MIN, messages: 10, layout: 'v24' }, 'stale', sdk),
    before('beacon-cron', 'default', { source: 'cron', model: 'claude-sonnet-4-5', cwd: cwd.beacon, title: 'Nightly link check', startedAt: now - 4 * HOUR, lastActivityAt: now - 20 * MIN, messages: 6 }, 'stale', sdk),
    before('webhook-local', 'default', { source: 'webhook', model: 'my-local-llama', provider: 'custom', baseUrl: 'http://localhost:11434/v1', title: 'Alert summariser', startedAt: now - 5 * HOUR, lastActivityAt: now - 2 * MIN, messages: 6, uncountedTokens: true }, 'stale', sdk),
    before('api-subscription', 'default', { source: 'api_server', model: 'claude-sonnet-4-5', billingMode: 'subscription_included', title: 'Customer reply drafts', startedAt: now - 3 * HOUR, lastActivityAt: now - 2 * MIN, messages: 14 }, 'stale', sdk),
    before('chain-parent', 'default', { source: 'cli', model: 'claude-opus-4-5', cwd: cwd.atlas, title: 'Payments refactor', startedAt: now - 3 * DAY, lastActivityAt: now - 2 * DAY, endedAt: now - 2 * DAY, endReason: 'compression', messages: 30 }, 'ended', sdkp),
    before('chain-tip', 'default', { source: 'cli', model: 'claude-opus-4-5', cwd: cwd.atlas, title: 'Payments refactor', startedAt: now - 2 * DAY, lastActivityAt: now - 20 * MIN, messages: 12 }, 'stale', sdkp, 'chain-parent'),
    // Not the tip although more recent: a /branch fork and a tool run of the compacted parent.
    before('chain-branch', 'default', { source: 'cli', model: 'claude-opus-4-5', cwd: cwd.atlas, title: 'Payments refactor (branch)', startedAt: now - 2 * DAY + 5 * MIN, lastActivityAt: now - 2 * MIN, messages: 6, modelConfig: { _branched_from: PARENT } }, 'stale', sdkp, 'chain-parent'),
    before('chain-tool', 'default', { source: 'tool', model: 'claude-sonnet-4-5', cwd: cwd.atlas, title: 'Payments refactor: test run', startedAt: now - 2 * DAY + 10 * MIN, lastActivityAt: now - 1 * MIN, messages: 4 }, 'stale', sdkp, 'chain-parent'),
    before('subagent-done', 'default', { source: 'subagent', model: 'claude-sonnet-4-5', cwd: cwd.atlasApi, title: 'Profile the export query', startedAt: now - 25 * HOUR, lastActivityAt: now - 25 * HOUR + 15 * MIN, endedAt: now - 25 * HOUR + 15 * MIN, endReason: 'completed', messages: 8, modelConfig: { _delegate_from: PARENT } }, 'ended', sdkp, 'atlas-api-cli'),
    before('tui-ended', 'default', { source: 'tui', model: 'gpt-5.1', provider: 'openai', cwd: cwd.beacon, title: 'Site redesign notes', startedAt: now - 4 * DAY, lastActivityAt: now - 4 * DAY + HOUR, endedAt: now - 4 * DAY + HOUR, endReason: 'cli_close', messages: 10 }, 'ended', sdk),
    before('no-prompt', 'default', { source: 'cli', model: 'gpt-5.1', provider: 'openai', cwd: cwd.beacon, title: 'Fix the RSS feed', startedAt: now - 8 * HOUR, lastActivityAt: now - 3 * HOUR, messages: 10, promptFromCurrentFiles: false }, 'no-prompt', []),
    // work profile (v24: prompts inline); its memory is edited, then a refresh is requested.
    before('work-beacon-cli', 'work', { source: 'cli', model: 'claude-sonnet-4-5', cwd: cwd.beacon, title: 'Beacon on-call fixes', startedAt: now - 30 * HOUR, lastActivityAt: now - 2 * MIN, messages: 12 }, 'pending', ['memory']),
    before('work-slack', 'work', { source: 'slack', model: 'gpt-5.1', provider: 'openai', title: 'Ticket triage', startedAt: now - 3 * DAY, lastActivityAt: now - 6 * HOUR, messages: 8, modelConfig: { prompt_refresh_epoch: 1 } }, 'pending', ['memory']),
    before('work-atlas-adopted', 'work', { source: 'cli', model: 'claude-opus-4-5', cwd: cwd.atlas, title: 'Atlas handoff', startedAt: now - 20 * HOUR, lastActivityAt: now - 19 * HOUR, messages: 10 }, 'fresh', []),
    before('work-cron-ended', 'work', { source: 'cron', model: 'deepseek-chat', provider: 'deepseek', title: 'Daily ticket digest', startedAt: now - 2 * DAY, lastActivityAt: now - 2 * DAY + 2 * MIN, endedAt: now - 2 * DAY + 2 * MIN, endReason: 'completed', messages: 4 }, 'ended', ['memory']),
    // Prompts stored after the edits.
    after('atlas-api-fresh', 'default', { source: 'cli', model: 'claude-opus-4-5', cwd: cwd.atlasApi, title: 'Add the orders index', startedAt: now - 1 * HOUR, lastActivityAt: now - 2 * MIN, messages: 8 }),
    after('telegram-fresh', 'default', { source: 'telegram', model: 'claude-sonnet-4-5', title: 'Standup notes', startedAt: now - 40 * MIN, lastActivityAt: now - 2 * MIN, messages: 6 }),
    after('beacon-cron-fresh', 'default', { source: 'cron', model: 'gemini-2.5-pro', provider: 'gemini', cwd: cwd.beacon, title: 'Hourly build check', startedAt: now - 2 * HOUR, lastActivityAt: now - 20 * MIN, messages: 4 }),
    after('work-telegram-new', 'work', { source: 'telegram', model: 'gemini-2.5-pro', provider: 'gemini', title: 'Rotation reminder', startedAt: now - 30 * MIN, lastActivityAt: now - 2 * MIN, messages: 6 }),
  ];
}
