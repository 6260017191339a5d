// What saving one source file would do to the sessions it feeds, judged on the text an editor holds
// as the saved file would be: each session's stored prompt judged again from its kept verdict
// (keptRejudge.ts, as after a save) against the sources with that file's part rendered from the
// text, and its refresh cost worked out with the new ΔS. A prompt that must be judged itself is
// read and re-judged from its last judgement (engine/judgement.ts). The model's caches are left as
// they are; the preview's own judgements go back to the caller, to start the next preview of the
// same file from (one per keystroke).
import { refreshCostInto, type RefreshCost, type RefreshCostInput } from '../cost/refreshCost';
import type { Writable } from '../writable';
import { memo } from '../memo';
import type { StaleReason } from '../model';
import { sourcesWithEdit, type EditedFile } from '../sources/editedSource';
import type { RenderedSources } from '../sources/types';
import type { AnalysisCache } from './analysisCache';
import type { ProfileAnalysis } from './analyzeProfile';
import { judgePrompt, type JudgedPrompt, type Judgement } from './judgement';
import { sourcesDigest } from './judgingDigest';
import { rejudgeKept, type JudgedBlocks } from './keptRejudge';
import { sourcesKey } from './sourcesKey';
import type { SkillMemo } from './staleness';
import type { VerdictStore } from './verdictStore';
import type { SessionReport } from './types';

/** One profile the file feeds: its analysis, the cache and verdicts that analysis came from, the sessions carrying the file. */
export interface PreviewProfile {
  readonly analysis: ProfileAnalysis;
  readonly cache: AnalysisCache;
  readonly verdicts: VerdictStore;
  readonly sessions: readonly SessionReport[];
}

export interface PreviewedSession {
  readonly session: SessionReport;
  /** Stale because of the file now (its saved text). */
  readonly staleNow: boolean;
  /** Stale because of the file once the text is saved. */
  readonly staleAfter: boolean;
  /** Stale for any reason once saved. */
  readonly anyStaleAfter: boolean;
  /** What refreshing it costs now, once saved (undefined: no prices for its model). */
  readonly refreshCostUsd: number | undefined;
  readonly cacheWarm: boolean;
}

export interface SavePreview {
  /** Whether the text puts anything else into a session's sources than the saved file does. */
  readonly changesPrompt: boolean;
  readonly sessions: readonly PreviewedSession[];
  /** This preview's judgements: `earlier` for the next preview of the file. */
  readonly judged: PreviewJudgements;
}

/**
 * Judgements by profile directory, prompt identity and the session's sourcesKey, as the analysis
 * keeps them (its cwd, '' for none; with the platform for a platform's own skills index): levels of
 * maps, so most lookups hash a string the session already holds. A prompt judged itself keeps its
 * whole judgement, for the next preview to start from.
 */
export type PreviewJudgements = Map<string, Map<string, Map<string, JudgedPrompt | Judgement>>>;

/**
 * What saving `edit` would do to the sessions of `profiles` that carry it, at `now` (epoch seconds);
 * `earlier`: the judgements of the last preview of the same file, if any.
 */
export function previewSave(edit: EditedFile, profiles: readonly PreviewProfile[], now: number, earlier?: PreviewJudgements): SavePreview {
  let changesPrompt = false;
  const sessions: PreviewedSession[] = [];
  // Thousands of sessions share a few hundred prompts: one judgement per prompt and cwd.
  const judged: PreviewJudgements = new Map();
  for (const { analysis, cache, verdicts, sessions: carrying } of profiles) {
    const dir = analysis.profile.dir;
    const edited = sourcesWithEdit(edit, { dir, config: analysis.config, sourcesFor: analysis.sourcesFor, fs: analysis.fs });
    const ours = memo(judged, dir, newMap<Map<string, JudgedPrompt>>);
    const theirs = earlier?.get(dir);
    // Skill reasons by skills index (a platform with a list, a trusted project has its own) and stored index text.
    const skillMemos: SkillMemo = new WeakMap();
    const judgedBlocks: JudgedBlocks = new WeakMap();
    // Compared once per cwd and platform: a skills index is tens of kilobytes, and equal text is compared to its end.
    const compared = new Set<RenderedSources>();
    for (const session of carrying) {
      // The sources the analysis judges the session by (a gateway platform's skills index included).
      const after = edited(session.cwd, session.source);
      if (!changesPrompt && !compared.has(after)) {
        compared.add(after);
        changesPrompt = differs(analysis.sourcesFor(session.cwd, session.source), after);
      }
      if (session.state !== 'fresh' && session.state !== 'stale') continue;
      const reusable = cache.reports.get(session.id);
      const promptKey = reusable?.inputs.record.promptKey;
      const identity = promptKey === undefined ? undefined : cache.knownIdentity(promptKey);
      const key = sourcesKey(analysis.config, session);
      const byKey = identity === undefined ? undefined : memo(ours, identity, newMap<JudgedPrompt>);
      let judgement = byKey?.get(key);
      if (byKey && !judgement) {
        const anatomy = () => cache.anatomyOfKey(promptKey);
        const rejudged = rejudgeKept(verdicts.anyVerdict(identity!, key), sourcesDigest(analysis.config, after), { apart: () => after, today: () => after, cwd: session.cwd, judgedBlocks, anatomy });
        if (rejudged) judgement = rejudged.verdict.judged;
        else {
          // Any judgement of the same stored prompt will do as a start: parts judged against other sources are judged again.
          const previous = wholeJudgement(theirs?.get(identity!)?.get(key)) ?? cache.staleness.get(identity!)?.get(key);
          const stored = previous?.stored ?? anatomy();
          judgement = stored && judgePrompt(stored, after, session.cwd, { skillMemo: skillMemos }, previous);
        }
        if (judgement) byKey.set(key, judgement);
      }
      // A prompt not judged yet (read since): as it is.
      const reasons = judgement?.reasons ?? session.reasons;
      costInput.prefixTokens = session.prefixTokens;
      costInput.systemPromptDeltaTokens = judgement?.deltaTokens ?? session.deltaTokens;
      costInput.lastActivityAt = session.lastActivityAt;
      costInput.now = now;
      costInput.ttlSeconds = session.ttlSeconds;
      costInput.prices = reusable?.prices;
      costInput.billingMode = reusable?.inputs.record.billingMode;
      refreshCostInto(cost, costInput);
      sessions.push({
        session,
        staleNow: session.state === 'stale' && names(session.reasons, edit.file),
        staleAfter: names(reasons, edit.file),
        anyStaleAfter: reasons.length > 0,
        refreshCostUsd: cost.extraUsd,
        cacheWarm: cost.warm,
      });
    }
  }
  return { changesPrompt, sessions, judged };
}

// One input and one result for every session costed (a preview runs synchronously, read before the next).
const costInput: Writable<RefreshCostInput> = { prefixTokens: 0, systemPromptDeltaTokens: 0, lastActivityAt: undefined, now: 0, ttlSeconds: 0, prices: undefined, billingMode: undefined };
const cost: Writable<RefreshCost> = { warm: false, cacheExpiresAt: undefined, extraUsd: undefined, coldUsd: undefined, apiEquivalent: false };

function newMap<V>(): Map<string, V> {
  return new Map();
}

/** A judgement of the prompt itself, not one made from a kept verdict. */
function wholeJudgement(judged: JudgedPrompt | undefined): Judgement | undefined {
  return judged && 'stored' in judged ? (judged as Judgement) : undefined;
}

function names(reasons: readonly StaleReason[], file: string): boolean {
  return reasons.some((r) => r.path === file);
}

/** Whether a part of the edited sources renders other text than today's. */
function differs(today: RenderedSources, after: RenderedSources): boolean {
  return (
    today.soul.block !== after.soul.block ||
    today.soul.exists !== after.soul.exists ||
    today.skills.block !== after.skills.block ||
    // A profile skill a trusted project's shadows today still feeds the prompts of builds that list no project skills.
    today.skills.withoutProject?.block !== after.skills.withoutProject?.block ||
    today.projectContext.block !== after.projectContext.block ||
    // An AGENTS.md an override hides today still feeds the prompts of builds that read no override.
    today.projectContext.otherReadings?.ignored.block !== after.projectContext.otherReadings?.ignored.block ||
    today.projectContext.otherReadings?.appended.block !== after.projectContext.otherReadings?.appended.block ||
    today.memory.block !== after.memory.block ||
    today.user.block !== after.user.block
  );
}
