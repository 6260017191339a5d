// Measures 2–5, over stdio against the bundled language server (dist/server.js) through the typed
// test client: re-evaluation after a save of SOUL.md and after a Hermes write, hover latency against
// a no-op round trip, refresh requests while a separate process writes like Hermes (and that
// writer's own latency with and without them), and the server's peak RSS.
import { spawn, type ChildProcess } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as readline from 'node:readline';
import { pathToFileURL } from 'node:url';
import { PublishDiagnosticsNotification, type PublishDiagnosticsParams } from 'vscode-languageserver-protocol/node';
import { RefreshRequest, SessionListChangedNotification, type SessionListResult } from '../shared/protocol';
import { TestLspClient } from '../test/support/lspClient';
import { ChildRssWatch } from './childRss';
import type { LargeHome } from './largeHome';
import { epochMs, median, round, sleep, summarize, type Summary } from './stats';

const WRITER = path.resolve(__dirname, 'hermesWriterProcess.js');

export interface LspPlan {
  /** Saves of SOUL.md and Hermes writes timed (each). */
  readonly reevalRuns: number;
  /** Hover and no-op requests timed (each). */
  readonly hoverRuns: number;
  /** Turns the writer commits without refresh requests, and as many again with them. */
  readonly writerTurns: number;
  /** The two conditions alternate this many times (each round writes writerTurns / rounds of each). */
  readonly writerRounds: number;
  readonly writerIntervalMs: number;
  /** Pause between refresh requests while the writer writes with them. */
  readonly refreshGapMs: number;
}

export interface LspResult {
  /** From `initialize` to the first session list holding every live session. */
  readonly startupMs: number;
  readonly reeval: {
    readonly saveMs: number;
    readonly writeMs: number;
    readonly saveSamples: number[];
    readonly writeSamples: number[];
    /** Parent-side: from sending the write command to the notification (includes the writer's own work). */
    readonly writeRoundTripMs: number;
  };
  readonly hover: { readonly soul: Summary; readonly noop: Summary; readonly hoverP95Ratio: number; readonly noopRequest: string };
  /**
   * Hover on SOUL.md holding unsaved text (the preview of saving it), against the no-op, alternated
   * the same way; and the first hover after each new edit, which works the preview out.
   */
  readonly dirtyHover: { readonly soul: Summary; readonly noop: Summary; readonly dirtyHoverP95Ratio: number; readonly firstAfterEdit: Summary };
  readonly refresh: {
    readonly latency: Summary;
    readonly sessionScope: Summary;
    readonly profileScope: Summary;
    readonly writerWithout: WriterSummary;
    readonly writerWith: WriterSummary;
    readonly writerP99Ratio: number;
  };
  readonly rss: {
    readonly peakMb: number;
    readonly endMb: number;
    readonly byPhase: Readonly<Record<string, number>>;
    /** The server's token-count helper processes (a separate process each, not in peakMb): the highest VmHWM, and how many ran. */
    readonly helper: { readonly peakMb: number; readonly processes: number };
  };
  readonly sessionListBytes: number;
  /** `hermes/sessionListChanged` as sent (JSON bytes, median): the one that showed a save's or a write's effect. */
  readonly changeBytes: { readonly afterSave: number; readonly afterWrite: number };
}

/**
 * Commits this slow are the writer's own WAL checkpoints (SQLite runs one in the commit that takes
 * the WAL past 1,000 pages: 35-60 ms here, against 1-3 ms for a turn). With refreshes the lens
 * copies the WAL after each of its commits (StateStore.handBackWal), so the writer meets fewer.
 */
const CHECKPOINT_SIZED_MS = 20;

export type WriterSummary = Summary & {
  readonly failures: number;
  /** Commits of CHECKPOINT_SIZED_MS or more: about 1% of them, so they decide on which side of it the p99 falls. */
  readonly checkpointSized: number;
};

function writerSummary(loop: { latenciesMs: number[]; failures: number }): WriterSummary {
  return { ...summarize(loop.latenciesMs), failures: loop.failures, checkpointSized: loop.latenciesMs.filter((ms) => ms >= CHECKPOINT_SIZED_MS).length };
}

export async function measureLsp(home: LargeHome, plan: LspPlan, log: (line: string) => void): Promise<LspResult> {
  const env = { ...process.env, HERMES_LENS_TOKEN_CACHE: path.join(home.dir, 'token-cache'), HERMES_HOME: home.root };
  const client = new TestLspClient({ home: home.root }, env);
  const helpers = new ChildRssWatch(client.process.pid!);
  const writer = new WriterProcess(home.dbFile);
  try {
    const live = home.liveSessionIds.length;
    const started = epochMs();
    await client.initialize({ rootDir: home.root });
    const first = await within(client.waitFor<SessionListResult>(SessionListChangedNotification.method, (p) => (p.profiles[0]?.sessions.length ?? 0) === live), 300_000, 'the first session list');
    const startupMs = epochMs() - started;
    const sessionListBytes = Buffer.byteLength(JSON.stringify(first));
    const pid = client.process.pid!;
    const rssByPhase: Record<string, number> = { start: readRss(pid).peakMb };
    log(`    server ready in ${startupMs.toFixed(0)} ms (${live} live sessions, session list ${(sessionListBytes / 1e6).toFixed(2)} MB), peak RSS ${rssByPhase.start} MB`);

    // 2a. Saves of SOUL.md as a user makes them: each save new text (one more sentence), every session
    // stale once the first edit is saved; each save changes what refreshing them costs (ΔS).
    const soulFile = path.join(home.profileDir, 'SOUL.md');
    const original = fs.readFileSync(soulFile, 'utf8');
    const soulUri = await client.open(soulFile, original);
    const costOf = (p: SessionListResult) => `${p.profiles[0]?.stale ?? -1}:${p.profiles[0]?.staleRefreshCostUsd ?? -1}`;
    let cost = costOf(first);
    const saveSamples: number[] = [];
    const saveChangeBytes: number[] = [];
    let text = original;
    for (let i = 0; i < plan.reevalRuns + 2; i++) {
      text += `\nWhen step ${i + 1} of a plan fails, say which one and propose ${i + 2} ways to recover.\n`;
      // As VS Code does it: the buffer changes while typing, and the diagnostics of what was typed are
      // back before the user saves; saving writes the file, then sends didSave (the watcher's echo of
      // that write is then skipped by the server).
      const typed = client.mark();
      const version = await client.change(soulUri, text);
      await within(client.waitFor<PublishDiagnosticsParams>(PublishDiagnosticsNotification.method, (p) => p.uri === soulUri && p.version === version, { since: typed }), 60_000, `the diagnostics of edit ${i}`);
      const mark = client.mark();
      const before = cost;
      const t0 = epochMs();
      fs.writeFileSync(soulFile, text);
      await client.save(soulUri);
      const list = await within(client.waitFor<SessionListResult>(SessionListChangedNotification.method, (p) => costOf(p) !== before, { since: mark }), 60_000, `the session list after save ${i}`);
      const dt = epochMs() - t0;
      cost = costOf(list);
      // The first two saves are a warm-up (the first makes every session stale; the tokenizer may load).
      if (i >= 2) saveSamples.push(dt);
      if (i >= 2) saveChangeBytes.push(sentBytes(client, list.revision));
      client.forgetHistory();
    }
    await client.change(soulUri, original);
    const restored = client.mark();
    fs.writeFileSync(soulFile, original);
    await client.save(soulUri);
    await within(client.waitFor<SessionListResult>(SessionListChangedNotification.method, (p) => costOf(p) !== cost, { since: restored }), 60_000, 'the session list after restoring SOUL.md');
    rssByPhase.saves = readRss(pid).peakMb;
    log(`    re-evaluation after a save of SOUL.md: median ${median(saveSamples).toFixed(1)} ms, change sent ${kb(median(saveChangeBytes))} (peak RSS ${rssByPhase.saves} MB)`);

    // 2b. A Hermes write to one session (another process), until the list shows it.
    const writeSamples: number[] = [];
    const roundTrips: number[] = [];
    const writeChangeBytes: number[] = [];
    for (let i = 0; i < plan.reevalRuns; i++) {
      const session = home.liveSessionIds[(i * 37) % live]!;
      const now = Math.round(Date.now() / 10) / 100 + i / 1000;
      const mark = client.mark();
      const sent = epochMs();
      const { committedAt } = await writer.request<{ committedAt: number }>({ cmd: 'append', session, now });
      const list = await within(
        client.waitFor<SessionListResult>(
          SessionListChangedNotification.method,
          (p) => p.profiles[0]?.sessions.some((s) => s.id === session && s.lastActivityAt === now) ?? false,
          { since: mark },
        ),
        60_000,
        `the session list after write ${i}`,
      );
      const arrived = epochMs();
      writeChangeBytes.push(sentBytes(client, list.revision));
      writeSamples.push(arrived - committedAt);
      roundTrips.push(arrived - sent);
      client.forgetHistory();
      // Pacing, not waiting: writes come a person's turn apart, outside the server's 150 ms window for
      // file events, so each is timed on its own rather than folded into the one before.
      await sleep(300);
    }
    rssByPhase.writes = readRss(pid).peakMb;
    log(`    re-evaluation after a Hermes write: median ${median(writeSamples).toFixed(1)} ms, change sent ${kb(median(writeChangeBytes))} (peak RSS ${rssByPhase.writes} MB)`);

    // 3. Hover on SOUL.md against a request the server answers at once: hover on a file that is not a
    // Hermes source (same dispatch, an empty answer).
    const noopUri = pathToFileURL(path.join(home.dir, 'notes.txt')).toString();
    for (let i = 0; i < 20; i++) {
      await client.hover(soulUri, 0, 0);
      await client.hover(noopUri, 0, 0);
    }
    const soulHover: number[] = [];
    const noop: number[] = [];
    for (let i = 0; i < plan.hoverRuns; i++) {
      for (const which of i % 2 === 0 ? ['soul', 'noop'] : ['noop', 'soul']) {
        const t0 = epochMs();
        const result = await client.hover(which === 'soul' ? soulUri : noopUri, 0, 0);
        const dt = epochMs() - t0;
        if (which === 'soul') {
          if (!result) throw new Error('no hover on SOUL.md');
          soulHover.push(dt);
        } else {
          noop.push(dt);
        }
      }
    }
    const soul = summarize(soulHover);
    const noopSummary = summarize(noop);
    rssByPhase.hovers = readRss(pid).peakMb;
    log(`    hover p50/p95 ${soul.p50}/${soul.p95} ms, no-op ${noopSummary.p50}/${noopSummary.p95} ms`);
    const dirtyHover = await measureDirtyHover(client, soulUri, noopUri, original, plan.hoverRuns);
    rssByPhase.dirtyHovers = readRss(pid).peakMb;
    log(`    hover on a dirty SOUL.md p50/p95 ${dirtyHover.soul.p50}/${dirtyHover.soul.p95} ms, no-op ${dirtyHover.noop.p50}/${dirtyHover.noop.p95} ms; the first after an edit p50/p95 ${dirtyHover.firstAfterEdit.p50}/${dirtyHover.firstAfterEdit.p95} ms`);

    // 4. The writer alone and the writer while refresh requests come in, alternated in rounds (as
    // the cold runs alternate with the floor): on a shared machine a noisy spell otherwise falls
    // into one condition. In a round both write the same turns (one seed, one count): about 1% of
    // the writer's commits run SQLite's WAL checkpoint (40-60 ms here), right at the p99, so two
    // runs of unequal length put it on different sides of that rank.
    const sessions = home.liveSessionIds.slice(0, Math.min(200, live));
    type Loop = { latenciesMs: number[]; failures: number };
    const without: Loop = { latenciesMs: [], failures: 0 };
    const withRefreshes: Loop = { latenciesMs: [], failures: 0 };
    const add = (into: Loop, loop: Loop) => {
      into.latenciesMs.push(...loop.latenciesMs);
      into.failures += loop.failures;
    };
    const refreshAll: number[] = [];
    const refreshSession: number[] = [];
    const refreshProfile: number[] = [];
    const turns = Math.max(1, Math.round(plan.writerTurns / plan.writerRounds));
    // Room for a loaded machine: three times the turns' planned pace.
    const roundTimeoutMs = 3 * turns * plan.writerIntervalMs + 60_000;
    let request = 0;
    for (let round = 0; round < plan.writerRounds; round++) {
      const alone = writer.request<Loop>({ cmd: 'loop', sessions, turns, intervalMs: plan.writerIntervalMs, seed: 1 + round });
      add(without, await within(alone, roundTimeoutMs, 'the writer alone'));
      if (round === 0) rssByPhase.writerAlone = readRss(pid).peakMb;
      const loopDone = writer.request<Loop>({ cmd: 'loop', sessions, turns, intervalMs: plan.writerIntervalMs, seed: 1 + round });
      let writing = true;
      void loopDone.finally(() => (writing = false));
      for (; writing; request++) {
        const profileScope = request % 4 === 3;
        const t0 = epochMs();
        const params = profileScope ? { profile: 'default' } : { profile: 'default', sessionIds: [home.liveSessionIds[(request * 13) % live]!] };
        const result = await within(client.connection.sendRequest(RefreshRequest, params), 60_000, `refresh request ${request}`);
        const dt = epochMs() - t0;
        if (!result || typeof result !== 'object' || !('epoch' in result)) throw new Error(`refresh failed: ${JSON.stringify(result)}`);
        refreshAll.push(dt);
        (profileScope ? refreshProfile : refreshSession).push(dt);
        client.forgetHistory();
        await sleep(plan.refreshGapMs);
      }
      add(withRefreshes, await within(loopDone, roundTimeoutMs, 'the writer with refreshes'));
    }
    const writerWithout = writerSummary(without);
    const writerWith = writerSummary(withRefreshes);
    const helper = helpers.result();
    log(`    token-count helper peak RSS ${helper.peakMb} MB (${helper.processes} started; a process of its own)`);
    log(`    writer p99 ${writerWithout.p99} ms alone, ${writerWith.p99} ms with ${refreshAll.length} refresh requests (p95 ${summarize(refreshAll).p95} ms); commits of ${CHECKPOINT_SIZED_MS} ms or more ${writerWithout.checkpointSized} and ${writerWith.checkpointSized} of ${writerWithout.n} and ${writerWith.n}`);

    // 5. Peak RSS of the server process over everything above.
    const rss = readRss(pid);
    rssByPhase.refreshes = rss.peakMb;
    return {
      startupMs: round(startupMs, 1),
      reeval: {
        saveMs: round(median(saveSamples), 2),
        writeMs: round(median(writeSamples), 2),
        saveSamples: saveSamples.map((v) => round(v, 2)),
        writeSamples: writeSamples.map((v) => round(v, 2)),
        writeRoundTripMs: round(median(roundTrips), 2),
      },
      hover: {
        soul,
        noop: noopSummary,
        hoverP95Ratio: round(soul.p95 / noopSummary.p95, 2),
        noopRequest: 'textDocument/hover on a file that is no Hermes source (same JSON-RPC path and dispatch, answered null)',
      },
      dirtyHover,
      refresh: {
        latency: summarize(refreshAll),
        sessionScope: summarize(refreshSession),
        profileScope: summarize(refreshProfile),
        writerWithout,
        writerWith,
        writerP99Ratio: round(writerWith.p99 / writerWithout.p99, 2),
      },
      rss: { ...rss, byPhase: rssByPhase, helper: helpers.result() },
      sessionListBytes,
      changeBytes: { afterSave: median(saveChangeBytes), afterWrite: median(writeChangeBytes) },
    };
  } finally {
    helpers.stop();
    writer.close();
    await Promise.race([client.shutdown().catch(() => undefined), sleep(5000)]);
    client.kill();
  }
}

/**
 * Hover on SOUL.md while it holds unsaved text, as a user hovers while typing: the buffer changes
 * (no save), then hovers alternate with the no-op as above. Apart, the first hover after each new
 * edit, which judges the edit (the preview of saving it) before it answers. The buffer is put back.
 */
async function measureDirtyHover(client: TestLspClient, soulUri: string, noopUri: string, saved: string, runs: number): Promise<LspResult['dirtyHover']> {
  const dirty: number[] = [];
  const noop: number[] = [];
  const first: number[] = [];
  const timed = async (uri: string) => {
    const t0 = epochMs();
    const result = await client.hover(uri, 0, 0);
    return { ms: epochMs() - t0, result };
  };
  for (let i = 0; i < runs; i++) {
    await client.change(soulUri, `${saved}\nBefore step ${i + 1} of a plan, say what it changes.\n`);
    const answered = await timed(soulUri);
    if (!JSON.stringify(answered.result ?? '').includes('Preview (unsaved)')) throw new Error('no save preview in the hover on a dirty SOUL.md');
    // The first edits are a warm-up (the tokenizer's helper may start).
    if (i >= 10) first.push(answered.ms);
  }
  for (let i = 0; i < 20; i++) {
    await client.hover(soulUri, 0, 0);
    await client.hover(noopUri, 0, 0);
  }
  for (let i = 0; i < runs; i++) {
    for (const which of i % 2 === 0 ? ['soul', 'noop'] : ['noop', 'soul']) {
      const { ms } = await timed(which === 'soul' ? soulUri : noopUri);
      (which === 'soul' ? dirty : noop).push(ms);
    }
  }
  await client.change(soulUri, saved);
  const soul = summarize(dirty);
  const noopSummary = summarize(noop);
  return { soul, noop: noopSummary, dirtyHoverP95Ratio: round(soul.p95 / noopSummary.p95, 2), firstAfterEdit: summarize(first) };
}

/** JSON size of the `hermes/sessionListChanged` the server sent for `revision`. */
function sentBytes(client: TestLspClient, revision: number): number {
  const change = client.sessionListChanges.find((c) => c.revision === revision);
  if (!change) throw new Error(`no session list change with revision ${revision} was received`);
  return Buffer.byteLength(JSON.stringify(change));
}

function kb(bytes: number): string {
  return `${(bytes / 1000).toFixed(1)} kB`;
}

/** `promise`, or an error naming what did not arrive within `ms`. */
function within<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => (timer = setTimeout(() => reject(new Error(`timed out after ${ms} ms waiting for ${what}`)), ms)));
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

/** VmHWM (peak resident set) and VmRSS of a process, in MB. */
export function readRss(pid: number): { peakMb: number; endMb: number } {
  const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = (field: string) => Number(new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(status)?.[1] ?? Number.NaN);
  return { peakMb: round(kb('VmHWM') / 1024, 1), endMb: round(kb('VmRSS') / 1024, 1) };
}

/** The Hermes-like writer child (bench/hermesWriterProcess.ts), one request at a time. */
class WriterProcess {
  private readonly child: ChildProcess;
  private readonly pending: Array<(value: Record<string, unknown>) => void> = [];
  private stderr = '';

  constructor(dbFile: string) {
    this.child = spawn(process.execPath, [WRITER, dbFile], { stdio: ['pipe', 'pipe', 'pipe'] });
    this.child.stderr!.on('data', (chunk) => (this.stderr += String(chunk)));
    readline.createInterface({ input: this.child.stdout! }).on('line', (line) => this.pending.shift()?.(JSON.parse(line) as Record<string, unknown>));
  }

  request<T>(command: Record<string, unknown>): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      this.pending.push((value) => (value.ok ? resolve(value as T) : reject(new Error(`writer: ${String(value.error)} ${this.stderr}`))));
      this.child.stdin!.write(JSON.stringify(command) + '\n');
    });
  }

  close(): void {
    if (this.child.exitCode === null) this.child.stdin!.end(JSON.stringify({ cmd: 'exit' }) + '\n');
  }
}

/** The server's start on a home: from `initialize` to the first full session list, and its RSS then. */
export interface ServerStartup {
  readonly startupMs: number;
  readonly rss: { peakMb: number; endMb: number };
}

/** Starts a server on `home` and measures its ServerStartup. */
export async function measureLspStartup(home: LargeHome): Promise<ServerStartup> {
  const env = { ...process.env, HERMES_LENS_TOKEN_CACHE: path.join(home.dir, 'token-cache'), HERMES_HOME: home.root };
  const client = new TestLspClient({ home: home.root }, env);
  try {
    const started = epochMs();
    await client.initialize({ rootDir: home.root });
    await client.waitFor<SessionListResult>(SessionListChangedNotification.method, (p) => (p.profiles[0]?.sessions.length ?? 0) === home.liveSessionIds.length);
    const startupMs = round(epochMs() - started, 1);
    return { startupMs, rss: readRss(client.process.pid!) };
  } finally {
    await Promise.race([client.shutdown().catch(() => undefined), sleep(5000)]);
    client.kill();
  }
}
