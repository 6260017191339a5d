// One session's report, from what it is computed from, reusing the last one as far as that allows.
// A report has two halves: the basis (model, provider, prices, cache lifetime, the tokens of the
// cached prefix…), which follows from the session's row, its stored prompt, its transcript size and
// the config; and the verdict (state, reasons, ΔS, what a refresh costs now), which also follows
// from the staleness judgement, the requested epoch and the clock. Re-evaluation keeps a report
// whose inputs are all the same (listSessionsSince keeps the record object of an unchanged row;
// config, prompt facts and transcript are new objects whenever they change; judgement.ts keeps the
// reasons array while the reasons read the same), unless its cache went cold since.
//
// A report whose basis holds is kept as the same object and its verdict is updated where it stands
// (a save of SOUL.md gives each of 2,000 sessions a new ΔS and refresh cost): a new report per
// session and save was most of what a save allocated, and the garbage collector's share of a save
// was larger than any other part of it. So a report object is the session's for as long as its
// basis holds: whoever needs what a report said at some moment copies it (the language server's
// sent list does, sessionListRevisions.ts), and `revision` says whether an update changed anything.
import type { ProfileConfig } from '../profile/config';
import { lookupPrices, type ModelPrices, type PriceOverrides } from '../cost/prices';
import { cacheExpiresAt, isApiEquivalent, isCacheWarm, refreshCostInto, type RefreshCost, type RefreshCostInput } from '../cost/refreshCost';
import type { Writable } from '../writable';
import { countsExactlyFor, estimateTokensFromChars } from '../cost/tokens';
import { defaultToolsFor, isCliSurface, toolBlockSize, type ToolBlockSize } from '../cost/toolSchemas';
import { toolTableFor, type ToolTableChoice } from '../anatomy/buildOfPrompt';
import { cacheTtlSeconds } from '../cost/ttl';
import type { SessionRecord, SessionState, TranscriptSize } from '../model';
import { compactionTip } from '../refresh/compactionTip';
import { stampedEpoch, type RefreshKeys } from '../refresh/epochs';
import type { AdoptionWatch } from '../refresh/adoption';
import { proseDifference } from '../anatomy/hermesProse';
import type { JudgedPrompt } from './judgement';
import type { PromptFacts } from './promptFacts';
import type { SessionReport } from './types';

export interface ReportInputs {
  readonly record: SessionRecord;
  readonly config: ProfileConfig;
  /** Of the stored prompt; undefined when the session holds none. */
  readonly prompt: PromptFacts | undefined;
  readonly transcript: TranscriptSize;
  readonly judged: JudgedPrompt;
  readonly requestedEpoch: number;
  /** Whether the Hermes build serving the home adopts refresh requests (install/hermesBuild.ts). */
  readonly adoptsRequests: boolean;
  /** The watch of the session's latest refresh request (refresh/adoption.ts), if one is watched. */
  readonly adoption: AdoptionWatch | undefined;
  /** The installed build's version, which prices the tools of prompts whose build the lens cannot tell. */
  readonly installedVersion: string | undefined;
  /** The prose fingerprint of the profile's newest stored prompt (hermesProse.ts), if any. */
  readonly referenceProse: string | undefined;
}

/**
 * The fields of a report's verdict: all that an update in place writes (updateVerdict). A report
 * object's other fields never change: a new basis makes a new report.
 */
export const VERDICT_FIELDS = ['state', 'reasons', 'otherBuild', 'requestedEpoch', 'unadoptableRequest', 'adoption', 'deltaTokens', 'cacheWarm', 'cacheExpiresAt', 'refreshCostUsd', 'refreshCostColdUsd'] as const;

/**
 * A session's report and what it was made from, kept by the cache between evaluations and updated
 * where it stands (sessionReport): one per live session, whose fields change, not the object.
 */
export interface ReusableReport {
  readonly inputs: ReportInputs;
  readonly prices: ModelPrices | undefined;
  readonly report: SessionReport;
  readonly world: ReportWorld;
  /** Bumped each time the report changed: its verdict updated in place to say something else, or a new report. */
  readonly revision: number;
}

/** The fields of a ReusableReport as sessionReport writes them. */
interface ReportSlot {
  inputs: Writable<ReportInputs>;
  prices: ModelPrices | undefined;
  report: Writable<SessionReport>;
  world: ReportWorld;
  revision: number;
}

/**
 * What every report of an evaluation also depends on besides the session's own row: the config,
 * the sources (by generation), the price overrides and the requested refresh epochs. The same
 * object while none of them changed (AnalysisCache.world), so a report made in the same world from
 * the same row is still good as long as its cache did not go cold (stillGood): a Hermes write to
 * one session re-evaluates that session alone.
 */
export interface ReportWorld {
  readonly config: ProfileConfig;
  readonly sourcesGeneration: number;
  readonly priceOverrides: PriceOverrides | undefined;
  /** The `state_meta` entries of refresh requests, as one string. */
  readonly epochs: string;
  /** The epoch each session must satisfy, from those entries (requestedEpochs). */
  readonly requestedEpoch: (sessionId: string) => number;
  /** Whether the Hermes build serving the home adopts refresh requests. */
  readonly adoptsRequests: boolean;
  /** The refresh protocol's names in use (refresh/epochs.ts): where each session's stamp is read. */
  readonly keys: RefreshKeys;
  /** The pyproject version of the installed Hermes build serving the home, when one was found. */
  readonly installedVersion: string | undefined;
}

/** Lookups of one evaluation, shared by sessions on the same model and tools. */
export interface ReportContext {
  readonly world: ReportWorld;
  readonly profileName: string;
  /** Every session, ended ones included (only when ended sessions are reported: compaction tips). */
  readonly everything: readonly SessionRecord[] | undefined;
  readonly now: number;
  readonly priceOverrides: PriceOverrides | undefined;
  readonly prices: Map<string, ModelPrices | null>;
  /** The tool-schema table by prompt fingerprint: sessions share their prompts' (toolTableFor). */
  readonly toolTables: Map<string, ToolTableChoice>;
  /**
   * Tool block sizes by table, surface (the CLI's or a gateway's: isCliSurface) and tool list: the
   * decoded lists are shared by the sessions of one `tool_names` text (DecodedColumns), the default
   * lists by every session of a build and surface.
   */
  readonly tools: Map<ToolTableChoice['table'], Map<boolean, Map<readonly string[], ToolBlockSize>>>;
}

/**
 * `previous` as it is when it was made in `world` from `record`, against the same newest prompt, and
 * its prompt cache is on the same side of its expiry: nothing it depends on changed.
 */
export function stillGood(previous: ReusableReport | undefined, world: ReportWorld, record: SessionRecord, referenceProse: string | undefined, now: number): previous is ReusableReport {
  return previous !== undefined && previous.world === world && previous.inputs.record === record && previous.inputs.referenceProse === referenceProse && sameWarmth(previous, now);
}

/**
 * The report of a session, `previous` (its last one) updated where the inputs allow: its basis
 * kept when the session's row, prompt, transcript and the config are the same, and then its report
 * object kept too, with the verdict written into it (bumping the revision when that changed
 * anything). `inputs` is copied, so a caller may pass the same object for every session.
 */
export function sessionReport(ctx: ReportContext, inputs: ReportInputs, previous: ReusableReport | undefined): ReusableReport {
  const world = ctx.world;
  if (!previous || !sameBasis(previous.inputs, inputs)) {
    const { report, prices } = newReport(ctx, inputs);
    if (!previous) return { inputs: { ...inputs }, prices, world, report, revision: 0 } satisfies ReportSlot;
    const slot = previous as ReportSlot;
    copyInputs(slot.inputs, inputs);
    slot.prices = prices;
    slot.world = world;
    slot.report = report;
    slot.revision += 1;
    return slot;
  }
  const slot = previous as ReportSlot;
  const recompute = !sameVerdictInputs(slot.inputs, inputs) || !sameWarmth(slot, ctx.now);
  copyInputs(slot.inputs, inputs);
  slot.world = world;
  if (recompute && updateVerdict(slot.report, slot.prices, inputs, ctx.now)) slot.revision += 1;
  return slot;
}

function copyInputs(into: Writable<ReportInputs>, from: ReportInputs): void {
  into.record = from.record;
  into.config = from.config;
  into.prompt = from.prompt;
  into.transcript = from.transcript;
  into.judged = from.judged;
  into.requestedEpoch = from.requestedEpoch;
  into.adoptsRequests = from.adoptsRequests;
  into.adoption = from.adoption;
  into.installedVersion = from.installedVersion;
  into.referenceProse = from.referenceProse;
}

function sameWarmth(previous: ReusableReport, now: number): boolean {
  return isCacheWarm(previous.inputs.record.lastActivityAt, previous.report.ttlSeconds, now) === previous.report.cacheWarm;
}

function sameBasis(was: ReportInputs, now: ReportInputs): boolean {
  return was.record === now.record && was.config === now.config && was.prompt === now.prompt && was.transcript === now.transcript && was.installedVersion === now.installedVersion;
}

function sameVerdictInputs(was: ReportInputs, now: ReportInputs): boolean {
  return (
    was.judged.reasons === now.judged.reasons &&
    was.judged.deltaTokens === now.judged.deltaTokens &&
    was.judged.buildNote === now.judged.buildNote &&
    was.requestedEpoch === now.requestedEpoch &&
    was.adoptsRequests === now.adoptsRequests &&
    was.adoption === now.adoption &&
    was.referenceProse === now.referenceProse
  );
}

/** A new report: its basis from the inputs, and the verdict worked out now. */
function newReport(ctx: ReportContext, inputs: ReportInputs): { report: Writable<SessionReport>; prices: ModelPrices | undefined } {
  const { record, prompt, config, judged, requestedEpoch } = inputs;
  const provider = providerOf(record);
  // The model the prompt says it was built for: after a `/model`, builds before 0.20.3 left the column behind.
  const model = prompt?.model ?? record.model;
  const tip = record.endedAt !== undefined && record.endReason === 'compression' && ctx.everything ? compactionTip(record, ctx.everything) : undefined;
  const transcriptTokens = inputs.transcript.recordedTokens + estimateTokensFromChars(inputs.transcript.uncountedChars);
  const choice = toolTableOf(ctx, prompt?.prose, inputs.installedVersion);
  const recorded = record.toolNames.length > 0;
  const toolNames = recorded ? record.toolNames : defaultToolsFor(choice.table, record.source, config.disabledToolsets);
  const toolBlock = toolBlockOf(ctx, choice.table, toolNames, record.source);
  const toolTokens = toolBlock.tokens;
  const systemPromptTokens = prompt?.tokens ?? 0;
  const prices = pricesOf(ctx, model, provider);
  const stamped = stampedEpoch(record.modelConfig, ctx.world.keys);
  const prefixTokens = systemPromptTokens + toolTokens + transcriptTokens;
  const ttlSeconds = cacheTtlSeconds(config.cacheTtl, record.source, prices);
  const v = verdictNow(stamped, prefixTokens, ttlSeconds, prices, inputs, ctx.now);
  // Every field written out in SessionReport's order: one object shape for every report (a spread
  // would make thousands of slow dictionary-mode objects).
  const report: Writable<SessionReport> = {
    profile: ctx.profileName,
    id: record.id,
    title: record.title,
    source: record.source,
    model,
    provider,
    cwd: record.cwd,
    state: v.state,
    reasons: judged.reasons,
    otherBuild: otherBuildOf(inputs),
    tipSessionId: tip && tip.id !== record.id ? tip.id : undefined,
    startedAt: record.startedAt,
    lastActivityAt: record.lastActivityAt,
    endedAt: record.endedAt,
    requestedEpoch,
    stampedEpoch: stamped,
    unadoptableRequest: v.unadoptableRequest,
    adoption: inputs.adoption,
    skillsTier: prompt?.skillsTier,
    systemPromptTokens,
    toolTokens,
    toolTable: { build: choice.table.name, by: choice.by, recorded, names: toolNames, tools: toolBlock.count, estimated: toolBlock.estimated.length },
    transcriptTokens,
    prefixTokens,
    tokensExact: prompt !== undefined && prompt.tokensCounted && countsExactlyFor(model),
    deltaTokens: judged.deltaTokens,
    ttlSeconds,
    cacheWarm: v.cacheWarm,
    cacheExpiresAt: v.cacheExpiresAt,
    refreshCostUsd: v.refreshCostUsd,
    refreshCostColdUsd: v.refreshCostColdUsd,
    apiEquivalent: isApiEquivalent(record.billingMode),
    pricesKnown: prices !== undefined,
  };
  return { report, prices };
}

// The lookups a report shares with other sessions', without a closure per session (each would
// also put the report's locals into a context object of their own).

/** The tool-schema table of a prompt's prose: sessions share their prompts' (toolTableFor). */
function toolTableOf(ctx: ReportContext, prose: string | undefined, installedVersion: string | undefined): ToolTableChoice {
  const key = prose ?? '';
  let choice = ctx.toolTables.get(key);
  if (!choice) ctx.toolTables.set(key, (choice = toolTableFor(prose, installedVersion)));
  return choice;
}

/** The size of a tool list's block on a session's surface, by table (ReportContext.tools). */
function toolBlockOf(ctx: ReportContext, table: ToolTableChoice['table'], toolNames: readonly string[], source: string | undefined): ToolBlockSize {
  let bySurface = ctx.tools.get(table);
  if (!bySurface) ctx.tools.set(table, (bySurface = new Map()));
  const cli = isCliSurface(source);
  let byNames = bySurface.get(cli);
  if (!byNames) bySurface.set(cli, (byNames = new Map()));
  let block = byNames.get(toolNames);
  if (!block) byNames.set(toolNames, (block = toolBlockSize(table, toolNames, source)));
  return block;
}

/** The prices of a model at a provider, null remembered for unknown ones. */
function pricesOf(ctx: ReportContext, model: string | undefined, provider: string | undefined): ModelPrices | undefined {
  const key = `${model ?? ''}\u0000${provider ?? ''}`;
  let prices = ctx.prices.get(key);
  if (prices === undefined) ctx.prices.set(key, (prices = lookupPrices(model, provider, ctx.priceOverrides) ?? null));
  return prices ?? undefined;
}

/**
 * The verdict worked out now, written into `report` field by field where it differs: whether any
 * did. Its basis fields are its own (they never change: a new basis makes a new report).
 */
function updateVerdict(report: Writable<SessionReport>, prices: ModelPrices | undefined, inputs: ReportInputs, now: number): boolean {
  const { judged, requestedEpoch } = inputs;
  const v = verdictNow(report.stampedEpoch, report.prefixTokens, report.ttlSeconds, prices, inputs, now);
  let changed = false;
  if (report.state !== v.state) (report.state = v.state), (changed = true);
  if (report.reasons !== judged.reasons) (report.reasons = judged.reasons), (changed = true);
  const otherBuild = otherBuildOf(inputs);
  if (report.otherBuild !== otherBuild) (report.otherBuild = otherBuild), (changed = true);
  if (report.requestedEpoch !== requestedEpoch) (report.requestedEpoch = requestedEpoch), (changed = true);
  if (report.unadoptableRequest !== v.unadoptableRequest) (report.unadoptableRequest = v.unadoptableRequest), (changed = true);
  if (report.adoption !== inputs.adoption) (report.adoption = inputs.adoption), (changed = true);
  if (report.deltaTokens !== judged.deltaTokens) (report.deltaTokens = judged.deltaTokens), (changed = true);
  if (report.cacheWarm !== v.cacheWarm) (report.cacheWarm = v.cacheWarm), (changed = true);
  if (report.cacheExpiresAt !== v.cacheExpiresAt) (report.cacheExpiresAt = v.cacheExpiresAt), (changed = true);
  if (report.refreshCostUsd !== v.refreshCostUsd) (report.refreshCostUsd = v.refreshCostUsd), (changed = true);
  if (report.refreshCostColdUsd !== v.refreshCostColdUsd) (report.refreshCostColdUsd = v.refreshCostColdUsd), (changed = true);
  return changed;
}

/** The verdict fields worked out from the inputs and the clock (besides reasons, ΔS and the epoch, which are the inputs'). */
interface VerdictNow {
  state: SessionState;
  unadoptableRequest: boolean;
  cacheWarm: boolean;
  cacheExpiresAt: number | undefined;
  refreshCostUsd: number | undefined;
  refreshCostColdUsd: number | undefined;
}
// One object for every session (evaluations run one at a time, synchronously); read before the next call.
const verdict: VerdictNow = { state: 'fresh', unadoptableRequest: false, cacheWarm: false, cacheExpiresAt: undefined, refreshCostUsd: undefined, refreshCostColdUsd: undefined };

/** The rules of a verdict, for a new report (newReport) and one updated in place (updateVerdict). */
function verdictNow(stampedEpoch: number, prefixTokens: number, ttlSeconds: number, prices: ModelPrices | undefined, inputs: ReportInputs, now: number): VerdictNow {
  // A request the build cannot adopt leaves the session on its prompt: judged as if none were made.
  // So does one its turn was seen to settle (adopted without a stamp the lens reads, or not adopted).
  const settled = inputs.adoption !== undefined && inputs.adoption.state !== 'pending' ? inputs.adoption.epoch : 0;
  const requested = inputs.requestedEpoch > Math.max(stampedEpoch, settled);
  const state = stateOf(inputs.record, inputs.prompt, requested && inputs.adoptsRequests, inputs.judged);
  verdict.state = state;
  verdict.unadoptableRequest = requested && !inputs.adoptsRequests && (state === 'stale' || state === 'fresh');
  if (state === 'fresh') {
    // A current session's refresh rebuilds the bytes it sends: it costs nothing, so nothing is priced
    // (most sessions of a status are fresh).
    verdict.cacheWarm = isCacheWarm(inputs.record.lastActivityAt, ttlSeconds, now);
    verdict.cacheExpiresAt = cacheExpiresAt(inputs.record.lastActivityAt, ttlSeconds);
    verdict.refreshCostUsd = 0;
    verdict.refreshCostColdUsd = 0;
    return verdict;
  }
  const cost = refreshCostOf(prefixTokens, ttlSeconds, prices, inputs, now);
  verdict.cacheWarm = cost.warm;
  verdict.cacheExpiresAt = cost.cacheExpiresAt;
  // Unknown without prices.
  verdict.refreshCostUsd = prices === undefined ? undefined : cost.extraUsd;
  verdict.refreshCostColdUsd = prices === undefined ? undefined : cost.coldUsd;
  return verdict;
}

// One input and one result for every session costed (evaluations run one at a time, synchronously).
const costInput: Writable<RefreshCostInput> = { prefixTokens: 0, systemPromptDeltaTokens: 0, lastActivityAt: undefined, now: 0, ttlSeconds: 0, prices: undefined, billingMode: undefined };
const costFigures: Writable<RefreshCost> = { warm: false, cacheExpiresAt: undefined, extraUsd: undefined, coldUsd: undefined, apiEquivalent: false };

/** What refreshing the session costs now; the object is reused by the next call. */
function refreshCostOf(prefixTokens: number, ttlSeconds: number, prices: ModelPrices | undefined, inputs: ReportInputs, now: number): RefreshCost {
  costInput.prefixTokens = prefixTokens;
  costInput.systemPromptDeltaTokens = inputs.judged.deltaTokens;
  costInput.lastActivityAt = inputs.record.lastActivityAt;
  costInput.now = now;
  costInput.ttlSeconds = ttlSeconds;
  costInput.prices = prices;
  costInput.billingMode = inputs.record.billingMode;
  refreshCostInto(costFigures, costInput);
  return costFigures;
}

/**
 * How another Hermes build than the newest session's shows in this session's prompt, if it does:
 * a phrase to follow "built by another Hermes build:".
 */
function otherBuildOf({ record, prompt, referenceProse, judged }: ReportInputs): string | undefined {
  if (!prompt || record.endedAt !== undefined) return undefined;
  const prose = referenceProse === undefined ? undefined : proseDifference(prompt.prose, referenceProse);
  if (prose && judged.buildNote) return `${prose}; ${judged.buildNote}`;
  return prose ?? judged.buildNote;
}

function stateOf(record: SessionRecord, prompt: PromptFacts | undefined, pending: boolean, judged: JudgedPrompt): SessionState {
  if (record.endedAt !== undefined) return 'ended';
  if (!prompt) return 'no-prompt';
  if (pending) return 'pending';
  return judged.reasons.length > 0 ? 'stale' : 'fresh';
}

function providerOf(record: SessionRecord): string | undefined {
  const fromConfig = record.modelConfig.provider;
  return typeof fromConfig === 'string' && fromConfig ? fromConfig : record.billingProvider;
}
