// The results file (raw figures, ratios, targets) and docs/BENCHMARKS.md, generated from
// bench/results/latest.json (full run) and bench/results/quick.json (quick run) when present.
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { ColdResult } from './cold';
import type { HomeSize, LargeHome } from './largeHome';
import type { LspPlan, LspResult, ServerStartup } from './lsp';
import type { SettleResult } from './settle';
import { HELPER_IDLE_MS } from '../server/tokenHelper/helperTokenCounter';
import { round } from './stats';

const ROOT = path.resolve(__dirname, '../..');
export const RESULTS_DIR = path.join(ROOT, 'bench', 'results');
const DOC = path.join(ROOT, 'docs', 'BENCHMARKS.md');

export const TARGETS = {
  coldRatio: 1.5,
  firstRunRatio: 3,
  afterEditRatio: 2,
  serverStartRatio: 2,
  reevalShare: 0.05,
  hoverP95Ratio: 3,
  dirtyHoverP95Ratio: 3,
  writerP99Ratio: 2,
  rssMb: 150,
} as const;

interface HomeFacts {
  readonly size: HomeSize;
  readonly seed: number;
  readonly distinctPrompts: number;
  readonly averagePromptBytes: number;
  /** The smallest, median and largest distinct prompt (older results lack it). */
  readonly promptBytes?: LargeHome['promptBytes'];
  /** Distinct prompts per corpus build whose layout they have (older results lack it). */
  readonly promptsByBuild?: LargeHome['promptsByBuild'];
  readonly dbMb: number;
  readonly liveSessions: number;
}

export interface SummaryRow {
  readonly measure: string;
  readonly figure: string;
  readonly baseline: string;
  readonly ratio: string;
  readonly target: string;
  readonly met: boolean;
}

export interface BenchResults {
  readonly mode: 'full' | 'quick';
  readonly generatedAt: string;
  readonly durationS: number;
  readonly machine: Record<string, unknown>;
  readonly home: HomeFacts;
  readonly plan: LspPlan & { readonly coldRuns: number };
  readonly coldRatio: number;
  /** The very first status (every cache empty) / the floor. */
  readonly firstRunRatio: number;
  /** Status right after an edit of SOUL.md / the floor. */
  readonly afterEditRatio: number;
  /** The language server's initialize → first full session list / the cold status. */
  readonly serverStartRatio: number;
  readonly reevalShare: number;
  readonly hoverP95Ratio: number;
  readonly dirtyHoverP95Ratio: number;
  readonly writerP99Ratio: number;
  readonly rssMb: number;
  readonly targets: typeof TARGETS;
  readonly met: Record<keyof typeof TARGETS, boolean>;
  readonly summary: readonly SummaryRow[];
  readonly cold: ColdResult;
  readonly lsp: LspResult;
  /** The full scan the server runs once a burst of Hermes writes settles (older results lack it). */
  readonly settle?: SettleResult;
  /** The 100,000-session variant. */
  readonly huge?: Variant;
  /** The variant with each session's prompt inline in its row, as before Hermes' v25. */
  readonly inline?: Variant;
}

/** Another home, measured for the cold status and the server's start. */
export interface Variant {
  readonly home: HomeFacts;
  readonly cold: ColdResult;
  readonly server: ServerStartup;
  readonly settle?: SettleResult;
}

export function buildResults(input: {
  mode: 'full' | 'quick';
  machine: Record<string, unknown>;
  home: HomeFacts;
  cold: ColdResult;
  lsp: LspResult;
  settle: SettleResult;
  huge: Variant | undefined;
  inline: Variant | undefined;
  plan: BenchResults['plan'];
  durationS: number;
}): BenchResults {
  const { cold, lsp } = input;
  const saveShare = lsp.reeval.saveMs / cold.coldMs;
  const writeShare = lsp.reeval.writeMs / cold.coldMs;
  const ratios = {
    coldRatio: cold.coldRatio,
    firstRunRatio: round(cold.coldFirstRunMs / cold.floorMs, 2),
    afterEditRatio: round(cold.afterSoulEditMs / cold.floorMs, 2),
    serverStartRatio: round(lsp.startupMs / cold.coldMs, 2),
    reevalShare: round(Math.max(saveShare, writeShare), 4),
    hoverP95Ratio: lsp.hover.hoverP95Ratio,
    dirtyHoverP95Ratio: lsp.dirtyHover.dirtyHoverP95Ratio,
    writerP99Ratio: lsp.refresh.writerP99Ratio,
    rssMb: lsp.rss.peakMb,
  };
  const met = {
    coldRatio: ratios.coldRatio <= TARGETS.coldRatio,
    firstRunRatio: ratios.firstRunRatio <= TARGETS.firstRunRatio,
    afterEditRatio: ratios.afterEditRatio <= TARGETS.afterEditRatio,
    serverStartRatio: ratios.serverStartRatio <= TARGETS.serverStartRatio,
    reevalShare: ratios.reevalShare <= TARGETS.reevalShare,
    hoverP95Ratio: ratios.hoverP95Ratio <= TARGETS.hoverP95Ratio,
    dirtyHoverP95Ratio: ratios.dirtyHoverP95Ratio <= TARGETS.dirtyHoverP95Ratio,
    writerP99Ratio: ratios.writerP99Ratio <= TARGETS.writerP99Ratio,
    rssMb: ratios.rssMb <= TARGETS.rssMb,
  };
  const ms = (v: number) => `${v < 10 ? v.toFixed(2) : v < 100 ? v.toFixed(1) : v.toFixed(0)} ms`;
  const pct = (v: number) => `${(v * 100).toFixed(1)}%`;
  const summary: SummaryRow[] = [
    { measure: 'Cold `status --json` vs sqlite3 floor', figure: ms(cold.coldMs), baseline: ms(cold.floorMs), ratio: `${cold.coldRatio}×`, target: `≤ ${TARGETS.coldRatio}×`, met: met.coldRatio },
    { measure: 'First `status --json` on a machine (every cache empty) vs sqlite3 floor', figure: ms(cold.coldFirstRunMs), baseline: ms(cold.floorMs), ratio: `${ratios.firstRunRatio}×`, target: `≤ ${TARGETS.firstRunRatio}×`, met: met.firstRunRatio },
    { measure: '`status --json` right after an edit of SOUL.md vs sqlite3 floor', figure: ms(cold.afterSoulEditMs), baseline: ms(cold.floorMs), ratio: `${ratios.afterEditRatio}×`, target: `≤ ${TARGETS.afterEditRatio}×`, met: met.afterEditRatio },
    { measure: 'Language server start (initialize → first full session list) vs cold status', figure: ms(lsp.startupMs), baseline: `cold ${ms(cold.coldMs)}`, ratio: `${ratios.serverStartRatio}×`, target: `≤ ${TARGETS.serverStartRatio}×`, met: met.serverStartRatio },
    { measure: 'Re-evaluation after saving SOUL.md', figure: ms(lsp.reeval.saveMs), baseline: `cold ${ms(cold.coldMs)}`, ratio: pct(saveShare), target: `≤ ${pct(TARGETS.reevalShare)}`, met: saveShare <= TARGETS.reevalShare },
    { measure: 'Re-evaluation after a Hermes write', figure: ms(lsp.reeval.writeMs), baseline: `cold ${ms(cold.coldMs)}`, ratio: pct(writeShare), target: `≤ ${pct(TARGETS.reevalShare)}`, met: writeShare <= TARGETS.reevalShare },
    { measure: 'Hover p95 on SOUL.md (p50) vs no-op', figure: `${ms(lsp.hover.soul.p95)} (${ms(lsp.hover.soul.p50)})`, baseline: `${ms(lsp.hover.noop.p95)} (${ms(lsp.hover.noop.p50)})`, ratio: `${lsp.hover.hoverP95Ratio}×`, target: `≤ ${TARGETS.hoverP95Ratio}×`, met: met.hoverP95Ratio },
    { measure: 'Hover p95 on a dirty SOUL.md, with the save preview (p50) vs no-op', figure: `${ms(lsp.dirtyHover.soul.p95)} (${ms(lsp.dirtyHover.soul.p50)})`, baseline: `${ms(lsp.dirtyHover.noop.p95)} (${ms(lsp.dirtyHover.noop.p50)})`, ratio: `${lsp.dirtyHover.dirtyHoverP95Ratio}×`, target: `≤ ${TARGETS.dirtyHoverP95Ratio}×`, met: met.dirtyHoverP95Ratio },
    { measure: 'Hermes writer p99 with refresh requests vs without', figure: ms(lsp.refresh.writerWith.p99), baseline: ms(lsp.refresh.writerWithout.p99), ratio: `${lsp.refresh.writerP99Ratio}×`, target: `≤ ${TARGETS.writerP99Ratio}×`, met: met.writerP99Ratio },
    { measure: 'Language server peak RSS (VmHWM)', figure: `${lsp.rss.peakMb} MB`, baseline: '—', ratio: '—', target: `≤ ${TARGETS.rssMb} MB`, met: met.rssMb },
  ];
  return {
    mode: input.mode,
    generatedAt: new Date().toISOString(),
    durationS: input.durationS,
    machine: input.machine,
    home: input.home,
    plan: input.plan,
    ...ratios,
    targets: TARGETS,
    met,
    summary,
    cold,
    lsp,
    settle: input.settle,
    ...(input.huge ? { huge: input.huge } : {}),
    ...(input.inline ? { inline: input.inline } : {}),
  };
}

function readResults(name: string): BenchResults | undefined {
  try {
    return JSON.parse(fs.readFileSync(path.join(RESULTS_DIR, name), 'utf8')) as BenchResults;
  } catch {
    return undefined;
  }
}

/** What past rounds of optimisation bought and why settings are what they are: bench/history.md, written by hand. */
function history(): string[] {
  const text = fs.readFileSync(path.join(ROOT, 'bench', 'history.md'), 'utf8');
  return ['', ...text.replace(/^<!--.*?-->\n+/s, '').trimEnd().split('\n'), ''];
}

/** docs/BENCHMARKS.md from the results files; returns its path. */
export function writeDocs(): string {
  const full = readResults('latest.json');
  const quick = readResults('quick.json');
  const lines: string[] = [
    '# Benchmarks',
    '',
    '<!-- Generated by `npm run bench` (bench/report.ts) from bench/results/*.json: edit the generator, not this file. -->',
    '',
    'Heavy Hermes users have tens of thousands of sessions and hundreds of megabytes of `state.db`. These',
    'benchmarks measure the lens on such homes, each figure against a floor measured in the same run.',
    '',
    '```sh',
    'npm run bench              # full sizes: 20,000 sessions, then the 100,000-session variant and the one with prompts inline (≈4 min once the homes are cached; making them takes a few more)',
    'npm run bench -- --quick   # CI sizes: 2,000 sessions (≈1–2 min)',
    'npm run bench -- --runs 5 --no-huge --no-inline --keep   # fewer cold runs, skip the variants, keep the working copies',
    '```',
    '',
    'Timing assertions never go into `npm test`; this is the place for figures.',
    '',
  ];
  if (full) lines.push(...resultSection('Full run', full));
  if (quick) lines.push(...resultSection('Quick run (CI sizes)', quick));
  if (!full && !quick) lines.push('No results yet: run `npm run bench`.', '');
  lines.push(...missed(full ?? quick), ...METHOD, ...ENGINE, ...history());
  fs.mkdirSync(path.dirname(DOC), { recursive: true });
  fs.writeFileSync(DOC, lines.join('\n') + '\n');
  return DOC;
}

function resultSection(title: string, r: BenchResults): string[] {
  const s = r.home.size;
  const m = r.machine as { cpu?: string; cores?: number; memoryGb?: number; node?: string; sqlite3Cli?: string; bindingSqlite?: string; platform?: string; loadAverageBefore?: number[]; loadAverageAfter?: number[] };
  const out = [
    `## ${title}`,
    '',
    `${r.generatedAt.slice(0, 16).replace('T', ' ')} UTC · ${m.platform} · ${m.cpu} × ${m.cores} · ${m.memoryGb} GB · Node ${m.node} · sqlite3 CLI ${m.sqlite3Cli} · better-sqlite3's SQLite ${m.bindingSqlite} · load average ${m.loadAverageBefore?.[0]} → ${m.loadAverageAfter?.[0]} · ${r.durationS} s in all.`,
    '',
    `Home: ${fmt(s.sessions)} sessions (${fmt(r.home.liveSessions)} live), ${fmt(s.messages)} messages, ${r.home.distinctPrompts} distinct stored prompts ${promptShape(r.home)} in \`system_prompts\`, ${fmt(s.skills)} skills (${s.visibleSkills} in the index), ${s.projects} projects; state.db ${r.home.dbMb} MB.`,
    '',
    '| Measure | Figure | Floor / baseline | Ratio | Target | Met? |',
    '|---|---|---|---|---|---|',
    ...r.summary.map((row) => `| ${row.measure} | ${row.figure} | ${row.baseline} | ${row.ratio} | ${row.target} | ${row.met ? 'yes' : '**no**'} |`),
    '',
    ...quickSizeNote(r),
    'Also measured:',
    '',
    `- cold status, CPU time (user + system) ${r.cold.coldCpuMs ?? '?'} ms vs the floor's ${r.cold.floorCpuMs ?? '?'} ms (${r.cold.cpuRatio ?? '?'}×); the very first run on a machine (empty caches: the tokenizer loads, nothing is kept) ${r.cold.coldFirstRunMs} ms; right after an edit of SOUL.md (every prompt read and judged again) ${r.cold.afterSoulEditMs ?? '?'} ms; \`node dist/cli.js --help\` (Node start + loading the CLI bundle, no work) ${r.cold.cliStartupMs} ms; status of the same profile files over a state.db with no sessions ${r.cold.noSessionsMs ?? '?'} ms; the CLI's peak RSS ${r.cold.coldPeakRssMb ?? '?'} MB; status JSON ${(r.cold.statusJsonBytes / 1e6).toFixed(2)} MB;`,
    ...nodeStartLines(r.cold),
    ...servedByInstallLine(r.cold),
    `- the server's start on this home (initialize → first full session list) ${r.lsp.startupMs} ms; the session list it sends ${(r.lsp.sessionListBytes / 1e6).toFixed(2)} MB;`,
    ...changeSizeLine(r.lsp),
    ...firstDirtyHoverLine(r.lsp),
    `- Hermes write → notification measured from the writer's commit; from the parent's command it is ${r.lsp.reeval.writeRoundTripMs} ms (includes the writer process's own work);`,
    ...settleLine(r.settle, 'once a burst of Hermes writes settles, the server compares every live row with its last read (the quick scan after each write misses a row changed without a message)'),
    `- refresh requests while Hermes writes: p50 ${r.lsp.refresh.latency.p50} ms, p95 ${r.lsp.refresh.latency.p95} ms over ${r.lsp.refresh.latency.n} requests (one session: p95 ${r.lsp.refresh.sessionScope.p95} ms; whole profile: p95 ${r.lsp.refresh.profileScope.p95} ms); writer p50 ${r.lsp.refresh.writerWithout.p50} → ${r.lsp.refresh.writerWith.p50} ms, max ${r.lsp.refresh.writerWithout.max} → ${r.lsp.refresh.writerWith.max} ms over ${r.lsp.refresh.writerWithout.n} / ${r.lsp.refresh.writerWith.n} transactions, ${r.lsp.refresh.writerWith.failures} failed; commits of 20 ms or more (the writer's own WAL checkpoints) ${r.lsp.refresh.writerWithout.checkpointSized ?? '?'} alone and ${r.lsp.refresh.writerWith.checkpointSized ?? '?'} with refreshes, p95 ${r.lsp.refresh.writerWithout.p95} → ${r.lsp.refresh.writerWith.p95} ms;`,
    `- server peak RSS by phase (MB): ${Object.entries(r.lsp.rss.byPhase ?? {}).map(([k, v]) => `${k} ${v}`).join(' → ')}; at the end ${r.lsp.rss.endMb} MB resident;`,
    `- the server's token-count helper (a process of its own, started when text no cache knows shows up, gone after ${HELPER_IDLE_MS / 1000} s without): peak RSS ${r.lsp.rss.helper ? `${r.lsp.rss.helper.peakMb} MB, ${r.lsp.rss.helper.processes} started` : 'not measured'} (not in the server's figure);`,
    `- runs: cold ${r.plan.coldRuns} per side (median), ${r.plan.reevalRuns} saves and ${r.plan.reevalRuns} writes (median), ${r.plan.hoverRuns} hovers and no-ops (percentiles), the writer ${r.plan.writerTurns} turns alone and as many with refresh requests, alternated in ${r.plan.writerRounds} rounds.`,
    '',
  ];
  if (r.huge) out.push(...variantSection(`${fmt(r.huge.home.size.sessions)}-session variant`, r.huge, `${r.huge.home.distinctPrompts} distinct prompts`));
  if (r.inline) {
    out.push(
      ...variantSection(
        'Prompts stored inline (Hermes before v25)',
        r.inline,
        `${r.inline.home.distinctPrompts} distinct prompts, each session holding its own copy in \`sessions.system_prompt\``,
      ),
      'Before v25 every session keeps its own copy of its prompt, so a status must learn which text each live session\'s copy holds ' +
        '(the floor reads every copy too). Its key is the sha256 of the UTF-8 bytes SQLite holds, the one Hermes would give that text ' +
        'from v25 on, and a status keeps the key each session\'s copy held: the next one reads and hashes one copy per key and has ' +
        'SQLite compare the others with it; a copy that differs is read and hashed. On the machine of the runs that changed this, the ' +
        'status took 327 ms when it read every copy as text (decoded into a string, encoded back to be hashed), 265 ms hashing every ' +
        'copy\'s bytes, and 230–260 ms in the full runs since (paired runs: 296 ms hashing every copy, 239 ms keeping the keys). Sessions holding the same text share one parse and one judgement, and its verdict is kept ' +
        'between runs under that key. When Hermes writes, the server has SQLite compare each live ' +
        'session\'s copy with the text it parsed rather than read them all again; the full scan once writes settle still walks each ' +
        'row\'s overflow pages, which hold the columns stored after the prompt.',
      '',
    );
  }
  return out;
}

/** The settling full scan's line (results from before it was measured have none). */
function settleLine(settle: SettleResult | undefined, what: string): string[] {
  return settle ? [`- ${what}: ${settle.fullScanMs} ms on the engine (median of ${settle.samples.length} turns);`] : [];
}

/** A variant's home, its cold status against its floor and its server's start. */
function variantSection(title: string, h: Variant, prompts: string): string[] {
  return [
    `### ${title}`,
    '',
    `${fmt(h.home.size.sessions)} sessions (${fmt(h.home.liveSessions)} live), ${fmt(h.home.size.messages)} messages, ${prompts}, state.db ${h.home.dbMb} MB.`,
    '',
    '| Measure | Figure | Floor / baseline | Ratio | Target | Met? |',
    '|---|---|---|---|---|---|',
    `| Cold \`status --json\` vs sqlite3 floor | ${h.cold.coldMs} ms | ${h.cold.floorMs} ms | ${h.cold.coldRatio}× | ≤ ${TARGETS.coldRatio}× | ${h.cold.coldRatio <= TARGETS.coldRatio ? 'yes' : '**no**'} |`,
    `| Language server peak RSS after start | ${h.server.rss.peakMb} MB | — | — | ≤ ${TARGETS.rssMb} MB | ${h.server.rss.peakMb <= TARGETS.rssMb ? 'yes' : '**no**'} |`,
    '',
    `Server start ${h.server.startupMs} ms${h.settle ? `; the full scan once Hermes writes settle ${h.settle.fullScanMs} ms` : ''}; cold status CPU ${h.cold.coldCpuMs ?? '?'} ms vs ${h.cold.floorCpuMs ?? '?'} ms; first run ${h.cold.coldFirstRunMs} ms${h.cold.withoutExtraCaCerts ? `; without NODE_EXTRA_CA_CERTS ${h.cold.withoutExtraCaCerts.coldMs} ms (${h.cold.withoutExtraCaCerts.coldRatio}×)` : ''}.`,
    '',
  ];
}

/**
 * The targets are set for a heavy user's profile (the full sizes). At CI sizes the floor is a
 * fraction of Node's own start, so the cold ratio and the shares of it say little: said under the
 * table, so a "no" there is not read as a miss of the targets.
 */
function quickSizeNote(r: BenchResults): string[] {
  if (r.mode !== 'quick') return [];
  const start = r.cold.nodeStartMs;
  const why =
    start !== undefined && start >= r.cold.floorMs * TARGETS.coldRatio
      ? ` At these sizes Node's own start (\`node -e 0\`, ${start} ms) alone is more than ${TARGETS.coldRatio}× the floor (${r.cold.floorMs} ms), ` +
        'and the re-evaluation shares are of a cold time made mostly of that start.'
      : '';
  return [`The targets are set for the full sizes, a heavy user's profile.${why} CI runs this size to keep the benchmark working, not to judge the targets.`, ''];
}

/** Why each missed target is missed, from what the runs show (only the missed ones). */
function missed(r: BenchResults | undefined): string[] {
  if (!r) return [];
  const notes: string[] = [];
  const c = r.cold;
  /** A re-evaluation's note when its share of cold misses the target. */
  const reevalNote = (what: string, ms: number, why: string) => {
    if (nearOrOver(ms / c.coldMs, TARGETS.reevalShare)) notes.push(`- **Re-evaluation after ${what} (${((ms / c.coldMs) * 100).toFixed(1)}% of cold, ${ms} ms).** ${why}`);
  };
  if (nearOrOver(r.coldRatio, TARGETS.coldRatio)) {
    const ca = c.withoutExtraCaCerts;
    notes.push(
      `- **Cold status (${r.coldRatio}× the floor).** A second status of an unchanged home judges nothing again: it checks what ` +
        'the last one kept (transcript sizes against the Hermes counters, verdicts against digests of the sources, those digests ' +
        `against what \`stat()\` says of the files read) and reads the sessions' rows. What is left over the floor: Node's own start ` +
        `(\`node -e 0\`) ${c.nodeStartMs ?? '?'} ms, where sqlite3, a small C program, starts in about a millisecond` +
        (ca ? ` (${round(c.nodeStartMs - ca.nodeStartMs, 1)} ms of it the certificates of NODE_EXTRA_CA_CERTS, see above: without them a cold status takes ${ca.coldMs} ms, ${ca.coldRatio}× the floor)` : '') +
        `; loading the CLI bundle through the code cache brings \`--help\` to ${c.cliStartupMs} ms; a status of the same profile files over a ` +
        `state.db with no sessions takes ${c.noSessionsMs} ms (checking the paths the sources were read from is most of the difference: ` +
        `a stat() costs about 4 µs in a system call here, 13 µs with Node's Stats object around it); the rows add ${round(c.coldMs - c.noSessionsMs, 1)} ms ` +
        "(the query scans every session's pages, 20,000 rows for 2,000 live ones, as the floor's does; then a report per live " +
        `session, and ${(c.statusJsonBytes / 1e6).toFixed(1)} MB of JSON through the pipe at its reader's pace). On these virtual machines ` +
        'a page of memory touched for the first time costs about 10 µs, so what a cold process allocates shows in its time: the ' +
        'CLI reads with a 512 KiB page cache (better-sqlite3 builds SQLite with 16 MB, whose filling took 40–55 ms), writes its ' +
        'JSON session by session, and keeps no Stats objects. Under Node 20 (V8 11) TurboFan optimizes the functions a cold ' +
        'status runs once per session, on another core (some 25 functions, ≈40 ms of CPU on this home): what they do is kept ' +
        'small, and no V8 flag is set (bench/history.md). Tried and not taken (this and earlier stops): V8 flags for the young generation and the compilers ' +
        '(`--max-semi-space-size` 1–64, `--semi-space-growth-factor`, `--always-sparkplug`, `--single-threaded-gc`: within the ' +
        'noise; `--no-opt`: as fast here as the raised budget, but 8% slower on `status --all`); stat() in the thread pool ' +
        '(issuing the calls costs the main thread more than making them); a hash of our own instead of node:crypto (its 6 ms ' +
        'load is paid for the code cache\'s integrity check, which a JavaScript hash of 240 kB takes longer than in a cold process); ' +
        "SQLite's mmap for the row read (four times slower here: a page mapped from the file costs a fault too; and a " +
        'truncated file would kill the process with SIGBUS); checking the sources on a worker thread while the rows are read ' +
        '(a status that skipped the check altogether was only about 20 ms faster, and starting a worker costs the main thread ' +
        '7 ms); the minified bundles of the packaged extension (no measurable difference). With 100,000 sessions the floor ' +
        'grows and the ratio falls (see the variant).',
    );
  }
  const distinct = `${fmt(r.home.distinctPrompts)} distinct prompts`;
  if (nearOrOver(r.firstRunRatio, TARGETS.firstRunRatio)) {
    notes.push(
      `- **First status on a machine (${r.firstRunRatio}× the floor, ${c.coldFirstRunMs} ms).** Every cache is empty: the tokenizer ` +
        `loads and counts the paragraphs of the ${distinct}, each prompt is parsed and judged, and nothing is kept from an earlier run.` +
        firstRunBudget(r),
    );
  }
  if (nearOrOver(r.afterEditRatio, TARGETS.afterEditRatio)) {
    notes.push(
      `- **Status right after an edit of SOUL.md (${r.afterEditRatio}× the floor, ${c.afterSoulEditMs} ms).** Every kept verdict is for ` +
        `the old SOUL.md, so each of the ${distinct} is read, parsed and judged again; token counts of unchanged paragraphs are still on disk.`,
    );
  }
  if (nearOrOver(r.serverStartRatio, TARGETS.serverStartRatio)) {
    notes.push(
      `- **Language server start (${r.serverStartRatio}× the cold status, ${r.lsp.startupMs} ms).** Timed from \`initialize\` to the first ` +
        `session list holding all ${fmt(r.home.liveSessions)} live sessions, with the token counts the cold runs left on disk.`,
    );
  }
  reevalNote(
    'a save',
    r.lsp.reeval.saveMs,
    'The share is against a cold status that keeps its ' +
        `analyses between runs, so 5% is ${round(c.coldMs * TARGETS.reevalShare, 1)} ms here. A save of SOUL.md re-judges the SOUL.md part of each of the distinct ` +
        '(prompt, cwd) pairs and gives every live session a new ΔS and refresh cost. Timestamps in the server (30 saves on a slower ' +
        'machine): didSave arrives 1.1–1.4 ms after the write; re-evaluating takes 4.5–8.5 ms (one scavenge of 1–2 ms in it); ' +
        `finding what changed since the list sent 0.5–1 ms; the change of ${changeKb(r.lsp.changeBytes?.afterSave)} is written 1–1.5 ms later; the client reads, ` +
        'parses and applies it in about 2 ms more: 11–12 ms in all, and saves that meet a busy moment of the other processes on the ' +
        "machine's two cores take 18–45 ms, which is what moves the median between runs. On a faster machine (a cold status of " +
        '129–145 ms, 20 saves): didSave 0.4–1.6 ms after the write, re-evaluating mostly 3.5–5.5 ms, the change found in 0.4–1 ms and ' +
        'written 0.4–1.1 ms later, the client about 1.5 ms more: 7–8 ms in all, which the cold status shrinks more than it does ' +
        '(the engine alone, saving back to back in one process, took a median 1.8 ms over 100 saves, 3.6 ms over 32). ' +
        'Young generations of 4 MB instead of 1 (one scavenge every few saves instead of one in each) made no difference over five ' +
        'alternated runs while the server ran with --optimize-for-size; without it they took a save from 6.6 to 5.9 ms ' +
        'over three paired full runs, and the server has them since. Reports are updated in place, the per-' +
        'session steps are small methods V8 optimizes within the first save, and patches name sessions by position in runs. ' +
        'What would take it lower: the verdict pass per (prompt, cwd) group rather than per session, and Judgements updated in place.',
  );
  reevalNote(
    'a Hermes write',
    r.lsp.reeval.writeMs,
    'A write is probed at once and again 2 and ' +
        "8 ms after its last event, since SQLite raises the file events before the commit is visible to readers; writes seen only " +
        'by the later probe carry that wait. In the server (timestamps of 30 writes on a machine with a cold status of ' +
        "134 ms): the file event 0.2–0.4 ms after the commit; the first query after it (`PRAGMA data_version`) 0.14 ms, which was " +
        "0.53 ms while the kept connection had better-sqlite3's 16 MB page cache (SQLite drops a connection's whole cache at its " +
        'first read after another connection committed, and the full scan after each burst had filled it); reading the touched ' +
        "sessions about 1 ms and passing over every live session's kept report 0.5–0.7 ms; the delta 0.5–1 ms (a write moves its " +
        "session to the top of the report while the client keeps its order; the index of the client's list by id is kept between " +
        `deltas); the change written 0.2–0.3 ms later and read by the client 0.3–1 ms after that; the change sent is ${changeKb(r.lsp.changeBytes?.afterWrite)}. ` +
        "V8's --optimize-for-size, which the server once ran with to keep its heap small, made this 6.9 ms against 4.5 " +
        'without (medians of three paired full LSP runs); the server now bounds its heap with --heap-growing-percent=30 alone. ' +
        'In-process the same work took 3.3 ms on the slower machines of earlier stops, 1.5 ms on this one (4.2 before the pass over the live sessions now finds each kept report by ' +
        'its position in the last list, not by id); the rest is the file event, the probes (the first often comes before the ' +
        'commit is visible) and the two processes waking. Closing it: totals and session lists kept up to date by the sessions ' +
        'that changed instead of recomputed, and a delta that compares only the reports that changed. (When a burst settles, the full scan takes about ' +
        "40 ms of the server's main thread and the stored-prompt count about 30 ms, outside this figure; the count ran after " +
        'every commit at first and now once per burst.)',
  );
  if (!r.met.writerP99Ratio) {
    notes.push(
      `- **Writer p99 (${r.writerP99Ratio}×).** The writer's slowest commits are its own WAL checkpoints: SQLite runs one in ` +
        'the commit that takes the WAL past 1,000 pages (about one of these turns in 100–130), 35–60 ms against 1–3 ms for a turn. ' +
        `Here ${r.lsp.refresh.writerWithout.checkpointSized ?? '?'} of ${r.lsp.refresh.writerWithout.n} commits alone and ` +
        `${r.lsp.refresh.writerWith.checkpointSized ?? '?'} of ${r.lsp.refresh.writerWith.n} with refreshes took 20 ms or more: about 1% is the rank of the p99, ` +
        'so one checkpoint more or less puts a p99 on a checkpoint (15–25 ms) or on a turn (4–7 ms). A refresh checkpoints the WAL ' +
        "after its commit (see below), so with refreshes the writer meets fewer of its own; what is left is the turns that share " +
        `the disk with that checkpoint (p95 ${r.lsp.refresh.writerWithout.p95} alone, ${r.lsp.refresh.writerWith.p95} ms with). Before the lens checkpointed after its request, the ` +
        "refresh's frames stayed in the WAL and added about one checkpoint in 800 commits (4.84× in one run, 1.38× in another).",
    );
  }
  if (!r.met.rssMb) {
    const phases = r.lsp.rss.byPhase ?? {};
    notes.push(
      `- **RSS (${r.rssMb} MB).** Node with the server bundle takes about 60 MB before reading anything (of it 45 MB the node ` +
        `binary's own pages); at start ${phases.start ?? '?'} MB with every count found in the token-count cache. Text never counted ` +
        'before (each SOUL.md edit) is counted in a helper process, so the o200k tables (about 70 MB) stay out of the server. The V8 ' +
        'flags and malloc arenas of shared/serverLaunch.ts keep the heap near what is live.',
    );
  }
  return notes.length ? ['## Targets missed or met only at the line, and why', '', ...notes, ''] : [];
}

/**
 * Over the target, or within 5% of it: a figure that close is met in one run and missed in the
 * next on these machines, so it is explained either way.
 */
function nearOrOver(figure: number, target: number): boolean {
  return figure > target * 0.95;
}

const METHOD = [
  '## Method',
  '',
  '- **Homes** (`bench/largeHome.ts`) are shaped like the homes Hermes\' own code writes, so the engine meets the work a',
  '  real profile gives it. Each stored prompt carries its session\'s day, model, provider, platform and working directory, so',
  '  sessions share a prompt only when all of these match: distinct prompts are 5% of the sessions (1,000 for 20,000; the',
  '  home before held 300 prompts of ≈31 KB in one rendering, so status judged fewer texts and met each paragraph more often).',
  '  The prompts span 60 days over five platforms (cli and cron in project folders, telegram, discord and slack without',
  '  one), eight models of five providers, and about thirty folders: AGENTS.md chains, single AGENTS.md, CLAUDE.md,',
  '  `.hermes.md` shadowing an AGENTS.md, a folder outside git, and a scratch folder with no context file. Their sizes',
  '  spread with the context files (0.5–18 KB), the coding brief of sessions in a workspace and the blocks GPT models get:',
  '  about 12 to 36 KB. Not below: these builds write ≈8.5 KB of their own prose around the blocks of even a gateway session,',
  '  and skills and memory are the profile\'s (400 skills, 30 in the index; 8 MEMORY.md and 4 USER.md entries), the same for',
  '  every session of it.',
  '- **Layouts of Hermes builds**: each prompt is arranged as one of the builds of the conformance corpus',
  '  (`test/fixtures/hermes-builds`) wrote it, read from its stored prompts (`bench/corpusBuilds.ts`, `bench/buildLayoutPrompt.ts`):',
  '  0.19.1 (skills index in the stable tier before the `Host:` lines, the session folder\'s AGENTS.md only), 0.20.0 (index',
  '  first in the volatile tier) and 0.20.3 (also the AGENTS.md chain from the git root, the zone after the start date),',
  '  a third of the 60 days each, oldest first; their guidance, `## Skills (mandatory)` heading and closing words, coding',
  '  brief, workspace snapshot, profile line and platform hints are Hermes\' own text. The blocks our sources render',
  '  (SOUL.md, the skills list, project context, MEMORY.md, USER.md) come from `renderSources` over the profile\'s files as they',
  '  are, so the untouched home has no stale session: the bench checks that on its first status, and that an edit of',
  '  SOUL.md makes every live session stale for it alone (`bench/homeVerdicts.ts`; `test/unit/bench/benchHome.test.ts` on',
  '  a small home), and stops otherwise. The rows are written by the simulated Hermes (`server/demo/hermes`:',
  '  `createStateDb`, `writeNewSession`) in transactions of 1,000 sessions on one connection. The variant before v25 stores',
  '  each session\'s prompt inline (layout `v24`), in 0.19.1\'s layout only, and has 4,000 sessions, 2,000 of them live. Homes',
  '  are cached under `$TMPDIR/hermes-lens-bench/` by size, layout, seed and generator version; each run works on a copy.',
  '- **Cold status** runs `node dist/cli.js status --json` in a fresh process, and the floor `sqlite3 -readonly state.db` with the',
  '  reads that report needs (`floorSql` in `bench/cold.ts`): the live sessions\' columns, the count of sessions holding a stored',
  '  prompt, the text of every distinct stored prompt of a live session, the live transcript sizes grouped per live session, and',
  '  `state_meta`. The two alternate, after warm-up runs (each command of the lens until its code cache has settled: the first',
  '  runs after a build add to it and write it again); wall time from spawn to exit, median of N, both read by this process',
  '  through a pipe. CPU time and peak RSS come from GNU time. The cold figure is a fresh process finding the lens\'s cache',
  '  folder as any second run finds it (token counts, compiled code, price answers, and what the last status kept of this',
  '  state.db: see below); the very first run (every cache empty) and the run right after an edit of SOUL.md (every kept',
  '  verdict is for other sources) are shown too. Processes run in the environment the bench runs in; where that sets',
  '  NODE_EXTRA_CA_CERTS, `node -e 0` and the cold status are also measured without it, and shown apart.',
  '- **Re-evaluation**: a save of SOUL.md as VS Code makes it (a `didChange` while typing; then the file written and `didSave`),',
  '  timed from the write until the next `hermes/sessionListChanged` whose stale count or refresh cost changed, whichever of the',
  '  save and the watcher\'s event of the write arrives first. Each save adds a new sentence, as a user edits (the',
  '  first makes every session stale, each one changes ΔS); the first two are a warm-up. A Hermes write: a separate process',
  '  appends a message with the simulated Hermes\' `appendMessages` and reports its commit time; the figure runs until the notification',
  '  that shows the session\'s new activity. The test client applies each change to its list (shared/sessionListChanges.ts, as',
  '  the VS Code client does), so the figures include that; the size is the JSON of the change as sent. Times are epoch milliseconds',
  '  (`performance.timeOrigin + performance.now()`) in both processes. Share = median / median cold status.',
  '- **Hover**: `textDocument/hover` on SOUL.md, alternating with the no-op: `textDocument/hover` on a file that is no Hermes source',
  '  (the same JSON-RPC path, dispatch and handler, answered `null` at once). p50/p95 over the samples, after 20 warm-ups each.',
  '  The same on SOUL.md holding unsaved text (a `didChange`, no save): the hover then says what saving would do. The save',
  '  preview is worked out once per document version, so the first hover after each edit is also timed, apart: as many',
  '  edits, each a new sentence, each followed by one hover (the first ten a warm-up).',
  '- **Writer**: a separate process keeps one connection, as a running Hermes does, and appends a turn (two messages, counters,',
  '  `last_activity_at`) to a random live session every 12–38 ms in a `BEGIN IMMEDIATE` transaction with a 1 s busy timeout and',
  '  jittered retries (the simulated Hermes); each transaction is timed from BEGIN to COMMIT, waits included. Two conditions, alternated in',
  '  rounds so both see the same machine: the writer alone (the server re-evaluating on its writes), and the same while the',
  '  editor sends refresh requests (three of one session, then one for the whole profile, each awaited, 200 ms apart). Each',
  '  condition\'s transactions are pooled over the rounds; in a round both write the same turns (one seed, one count of',
  '  turns: the same WAL growth, so the same checkpoints, and as many samples). writerP99Ratio = p99 with / p99 without.',
  '- **RSS**: `VmHWM` of the server process from `/proc/<pid>/status` after everything above. The token-count helper is a process',
  '  of its own (a child of the server): its `VmHWM` is sampled every 50 ms while it lives and reported apart.',
  '- The machine is shared and noisy: medians and paired, alternating runs keep the ratios meaningful; absolute times vary.',
  '',
];

const ENGINE = [
  '## What the engine does for these figures',
  '',
  '- **Work per distinct prompt, not per session**: token counts are summed paragraph by paragraph (split where the o200k',
  '  pre-tokenizer cannot join across, so the sum is exact: checked against whole-text counts by a property test) and each',
  '  paragraph is counted once, since prompts share most paragraphs. Counts are also kept on disk as hashes, so a new process',
  '  loads the tokenizer only for text never seen before. Staleness is judged once per distinct (stored prompt, session cwd).',
  '- **Judgements per source part** (`server/hermes/engine/judgement.ts`): each judgement keeps its reasons per part (SOUL.md,',
  '  skills, project context, MEMORY.md, USER.md) and the blocks of the rebuilt prompt; a save re-judges the part that changed,',
  '  and where the block\'s edges are token boundaries ΔS moves by the new block\'s tokens minus the old one\'s, the same for every',
  '  prompt holding it (a property test checks this against rebuilding from scratch). A session\'s report is a basis (its row, prompt,',
  '  transcript, config) and a verdict (state, reasons, ΔS, cost): a save recomputes only the verdicts.',
  '- **What status keeps between runs** (`persistedAnalyses.ts`, `sourceDigests.ts`, `fs/recordingFs.ts`): per state.db, each live',
  '  session\'s transcript size with the Hermes counters it was read at; each stored prompt\'s facts and verdict with a digest of the',
  '  sources it was judged against; those digests with what rendering the sources read (paths and what `stat()` said: a',
  '  thousand skills are checked with two thousand stats instead of being read and parsed); and the stored-prompt count with the',
  '  size, mtime and inode of state.db and its WAL (not ctime: as root, SQLite chowns the WAL on every open; an empty WAL counts as',
  '  none). A second status of an unchanged home reads the sessions\' rows and little else. Nothing',
  '  of a prompt\'s text is kept: numbers, hashes, paths and the reasons status prints.',
  '- **Sources read once per profile**, through code that avoids work a cold process pays for: one walk of the skills tree,',
  '  each file opened, stat\'ed and read once; plain YAML (config.yaml, simple frontmatter) read without the YAML library',
  '  (property-tested against it); injection patterns compiled on first use and only for text holding their words; the',
  '  tokenizer, the price list and the YAML library in bundles of their own, loaded only when needed; the CLI bundle loaded',
  '  through V8\'s code cache, its Node modules imported without esbuild\'s copy of each one\'s exports.',
  '- **Memory a cold process touches**: a page of memory used for the first time costs a fault (about 10 µs on these virtual',
  '  machines), so the CLI\'s reads use a 512 KiB page cache, not the 16 MB better-sqlite3 builds SQLite with (the language',
  '  server\'s kept connection uses 2 MB, as SQLite drops it whole at Hermes\' next commit); the check of the sources keeps no',
  '  Stats objects; and `--json` into a pipe or a file is written session by session (jsonPieces.ts) with write(2), never',
  '  held whole.',
  '- **Hermes writes**: the server keeps one read connection per profile. A database event is probed at once (`PRAGMA',
  '  data_version`, again 2 and 8 ms later in case the commit was not visible yet); the sessions that gained messages or were',
  '  added since the last read (past the tables\' last rowids) are read again at once, and reports of sessions whose row did not',
  '  change are kept as they are; a full digest pass over every live row follows when the burst settles (150 ms, at most 1 s),',
  '  for rows changed without a message, and then the count of sessions holding a stored prompt (an aggregate over all of them).',
  '- **The save preview** (`server/hermes/engine/savePreview.ts`): while SOUL.md holds unsaved text, each stored prompt is judged',
  '  against the sources with SOUL.md rendered from that text, once per document version (the lens, the hover and the status item',
  '  of the same version share it), each preview starting from the judgements of the document\'s last one, so a prompt\'s ΔS moves',
  '  by one block\'s tokens; nothing of it enters the model\'s caches. Typing (the edits timed above, each followed by a hover) is',
  '  the `dirtyHovers` phase of the server\'s peak RSS.',
  '- **Session list deltas**: a client holding a session gets only the fields that changed, in columns grouped by the set of',
  '  fields (a save of SOUL.md changes three numbers of thousands of sessions); costs go out to a hundred-millionth of a dollar.',
  '- **Aggregating SQL**: without `--all` only live sessions are read, as arrays of the columns used; the stored-prompt count',
  '  looks the non-empty prompts\' hashes up once; prompt emptiness and message sizes come from `octet_length()` (the record',
  '  header, not the text; the floor\'s sqlite3 3.40 lacks it and casts to BLOB); transcript sizes come from one grouped query.',
  '- **Short write lock**: a refresh request scans the sessions (epoch stamps, stored-prompt count) in one snapshot before',
  '  `BEGIN IMMEDIATE`; under the lock it reads only `state_meta` and, when `PRAGMA data_version` shows a commit since, the',
  '  sessions added since (a stamp written meanwhile is an epoch `state_meta` requested then or now). Scans skip every',
  '  `model_config` that cannot hold a stamp without parsing it.',
  '- **The WAL handed back**: right after its commit a refresh runs a PASSIVE checkpoint on its own connection (it never waits',
  '  for Hermes nor makes Hermes wait), so Hermes\' next turn starts the WAL over instead of carrying the request\'s frames',
  '  toward the commit that pays SQLite\'s autocheckpoint (35–60 ms here). While refreshes come every 200 ms, as in this',
  '  benchmark, Hermes\' own frames are copied with them, so the writer meets fewer checkpoints with refreshes than alone.',
  '',
];

/** The prompts' sizes and the builds whose layouts they have (results from before these were kept give the mean alone). */
function promptShape(home: HomeFacts): string {
  const kb = (bytes: number) => (bytes / 1000).toFixed(1);
  if (!home.promptBytes) return `of ≈${kb(home.averagePromptBytes)} KB`;
  const builds = Object.entries(home.promptsByBuild ?? {}).map(([build, n]) => `${n} in ${build.split('-')[0]}'s layout`);
  return `of ${kb(home.promptBytes.min)}–${kb(home.promptBytes.max)} KB (median ${kb(home.promptBytes.median)}, mean ${kb(home.averagePromptBytes)}; ${builds.join(', ')})`;
}

function fmt(n: number): string {
  return n.toLocaleString('en-US');
}

/**
 * What the first-run target leaves for the work on the prompts: the target less Node reading the
 * floor's rows (the node floor) and less loading the lens and the profile's files (a status
 * without sessions less Node's start); per distinct prompt, beside what each takes now.
 */
function firstRunBudget(r: BenchResults): string {
  const c = r.cold;
  if (c.nodeFloorMs === undefined || c.noSessionsMs === undefined || c.nodeStartMs === undefined) return '';
  const prompts = Math.max(1, r.home.distinctPrompts);
  const lensAndFiles = c.noSessionsMs - c.nodeStartMs;
  const left = TARGETS.firstRunRatio * c.floorMs - c.nodeFloorMs - lensAndFiles;
  const now = c.coldFirstRunMs - c.nodeFloorMs - lensAndFiles;
  const perPrompt = (ms: number) => (ms > 0 ? `${Math.round((ms * 1000) / prompts)} µs` : 'nothing');
  return (
    ` Node reading the floor's rows takes ${c.nodeFloorMs} ms (${round(c.nodeFloorMs / c.floorMs, 2)}× the floor) and loading the lens with ` +
    `the profile's files ${round(lensAndFiles, 1)} ms more, so the target leaves ${perPrompt(left)} per distinct prompt for the work on it; ` +
    `it takes ${perPrompt(now)} now.`
  );
}

/** Node's own start, and what NODE_EXTRA_CA_CERTS adds to it where the environment sets it (results from before either was measured have neither). */
function nodeStartLines(c: ColdResult): string[] {
  if (c.nodeStartMs === undefined) return [];
  const ca = c.withoutExtraCaCerts;
  const lines = [`- Node's own start (\`node -e 0\`, nothing of the lens loaded) ${c.nodeStartMs} ms;`];
  if (c.nodeFloorMs !== undefined) {
    lines.push(
      `- the floor's statements run from Node (\`bench/nodeFloorReader.ts\`: better-sqlite3 with the page cache of a status, every value taken into JavaScript, nothing else) ${c.nodeFloorMs} ms, ${round(c.nodeFloorMs / c.floorMs, 2)}× the floor: what no status of this home can go below in Node;`,
    );
  }
  if (ca) {
    lines.push(
      `- this machine's environment sets NODE_EXTRA_CA_CERTS (for its package proxy), and Node reads and parses those certificates at every start, before any script runs (nodejs/node issue 40524), though the lens opens no TLS connection: without it \`node -e 0\` takes ${ca.nodeStartMs} ms and a cold status ${ca.coldMs} ms (${ca.coldRatio}× the same floor). The figures above keep the environment as it is;`,
    );
  }
  return lines;
}

/** The home served by an installation without refresh-prompts (results from before it was measured have none). */
function servedByInstallLine(c: ColdResult): string[] {
  const i = c.servedByInstall;
  if (!i) return [];
  return [
    `- the same status with the home served by a Hermes installation without refresh-prompts (\`--hermes-install\`, a generated \`hermes_cli\` of ${i.modules} modules, ${i.mb} MB, none of Hermes' code: bench/fakeInstall.ts) ${i.coldMs} ms against ${i.withoutMs} ms without it in the same runs (the reading of its sources kept from an earlier command, its files only stat()ed); the first command, which reads every module, ${i.firstCommandMs} ms;`,
  ];
}

/** The first hover after each unsaved edit, which judges the edit (results from before the save preview have none). */
function firstDirtyHoverLine(lsp: LspResult): string[] {
  const first = lsp.dirtyHover?.firstAfterEdit;
  if (!first) return [];
  return [
    `- the first hover after each unsaved edit of SOUL.md, which judges the edit against every stored prompt before it answers (the preview of saving it; later hovers, lenses and the status item of the same text take it as it was worked out): p50 ${first.p50} ms, p95 ${first.p95} ms over ${first.n} edits, no-op p95 ${lsp.dirtyHover.noop.p95} ms;`,
  ];
}

/** The size of the list changes sent after a save and a write (results from before deltas have none). */
function changeSizeLine(lsp: LspResult): string[] {
  if (!lsp.changeBytes) return [];
  return [`- \`hermes/sessionListChanged\` as sent: ${changeKb(lsp.changeBytes.afterWrite)} after a Hermes write to one session, ${changeKb(lsp.changeBytes.afterSave)} after a save of SOUL.md (median);`];
}

function changeKb(bytes: number | undefined): string {
  return bytes === undefined ? '?' : `${(bytes / 1000).toFixed(1)} kB`;
}
