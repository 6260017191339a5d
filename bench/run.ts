// `npm run bench` (full sizes) and `npm run bench -- --quick` (small sizes, for CI): generates (or
// reuses) the large Hermes homes, measures everything in one run, and writes
// bench/results/latest.json (full) or bench/results/quick.json (quick), then docs/BENCHMARKS.md
// from whichever results exist. Options: --runs N (cold runs per side), --no-huge (skip the
// 100,000-session variant), --no-inline (skip the variant with prompts stored inline, as before
// Hermes' v25), --keep (keep the working copies).
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { measureCold } from './cold';
import { ensureLargeHome, SIZES, workingCopy, type HomeSize, type LargeHome } from './largeHome';
import { measureLsp, measureLspStartup, type LspPlan } from './lsp';
import { measureSettle } from './settle';
import { buildResults, RESULTS_DIR, writeDocs, type Variant } from './report';

interface Args {
  readonly quick: boolean;
  readonly runs: number | undefined;
  readonly huge: boolean;
  readonly inline: boolean;
  readonly keep: boolean;
}

function parseArgs(argv: readonly string[]): Args {
  const runsAt = argv.indexOf('--runs');
  const runs = runsAt >= 0 ? Number(argv[runsAt + 1]) : undefined;
  if (runs !== undefined && !(Number.isInteger(runs) && runs > 0)) throw new Error('--runs takes a positive integer');
  return { quick: argv.includes('--quick'), runs, huge: !argv.includes('--no-huge'), inline: !argv.includes('--no-inline'), keep: argv.includes('--keep') };
}

const PLANS: Record<'quick' | 'full', { coldRuns: number; lsp: LspPlan; variantColdRuns: number; settleRuns: number }> = {
  quick: { coldRuns: 5, variantColdRuns: 0, settleRuns: 5, lsp: { reevalRuns: 8, hoverRuns: 150, writerTurns: 240, writerRounds: 2, writerIntervalMs: 25, refreshGapMs: 150 } },
  full: { coldRuns: 15, variantColdRuns: 5, settleRuns: 10, lsp: { reevalRuns: 30, hoverRuns: 400, writerTurns: 800, writerRounds: 4, writerIntervalMs: 25, refreshGapMs: 200 } },
};

async function main(): Promise<void> {
  const args = parseArgs(process.argv.slice(2));
  const mode = args.quick ? 'quick' : 'full';
  const plan = PLANS[mode];
  const log = (line: string) => process.stdout.write(line + '\n');
  const started = Date.now();
  const loadBefore = os.loadavg();
  log(`Hermes Prompt Lens benchmarks (${mode})`);

  const size: HomeSize = args.quick ? SIZES.quick : SIZES.large;
  const workRoot = path.join(os.tmpdir(), 'hermes-lens-bench-work');
  const home = workingCopy(ensureLargeHome(size, undefined, { log }), path.join(workRoot, size.name));
  log(`1. cold status vs the sqlite3 floor (${args.runs ?? plan.coldRuns} runs each)`);
  const cold = await measureCold(home, args.runs ?? plan.coldRuns, home.dir, log);
  log(`   cold ${cold.coldMs} ms, floor ${cold.floorMs} ms: ${cold.coldRatio}×`);
  log('2–5. language server over stdio');
  const lsp = await measureLsp(home, plan.lsp, log);
  const settle = measureSettle(home, plan.settleRuns);
  log(`   the full scan after a burst of Hermes writes settles: ${settle.fullScanMs} ms (engine, median of ${plan.settleRuns})`);

  if (!args.keep) fs.rmSync(home.dir, { recursive: true, force: true });
  const variant = async (size: HomeSize, what: string): Promise<Variant> => {
    const variantHome = workingCopy(ensureLargeHome(size, undefined, { log }), path.join(workRoot, size.name));
    log(`${what}: cold status vs floor (${args.runs ?? plan.variantColdRuns} runs each), server start and RSS`);
    const variantCold = await measureCold(variantHome, args.runs ?? plan.variantColdRuns, variantHome.dir, log);
    const server = await measureLspStartup(variantHome);
    const variantSettle = measureSettle(variantHome, plan.settleRuns);
    log(`   cold ${variantCold.coldMs} ms, floor ${variantCold.floorMs} ms: ${variantCold.coldRatio}×; server ready in ${server.startupMs} ms, peak RSS ${server.rss.peakMb} MB; settling full scan ${variantSettle.fullScanMs} ms`);
    if (!args.keep) fs.rmSync(variantHome.dir, { recursive: true, force: true });
    return { home: homeFacts(variantHome), cold: variantCold, server, settle: variantSettle };
  };
  const huge = mode === 'full' && args.huge ? await variant(SIZES.huge, 'huge variant') : undefined;
  const inline = mode === 'full' && args.inline ? await variant(SIZES.inline, 'prompts inline (before v25)') : undefined;

  const results = buildResults({
    mode,
    machine: machineInfo(loadBefore),
    home: homeFacts(home),
    cold,
    lsp,
    settle,
    huge,
    inline,
    plan: { coldRuns: args.runs ?? plan.coldRuns, ...plan.lsp },
    durationS: Math.round((Date.now() - started) / 1000),
  });
  fs.mkdirSync(RESULTS_DIR, { recursive: true });
  const file = path.join(RESULTS_DIR, mode === 'full' ? 'latest.json' : 'quick.json');
  fs.writeFileSync(file, JSON.stringify(results, null, 2) + '\n');
  const doc = writeDocs();
  log(`\nwrote ${path.relative(process.cwd(), file)} and ${path.relative(process.cwd(), doc)}`);
  for (const row of results.summary) log(`  ${row.met ? 'met   ' : 'MISSED'} ${row.measure}: ${row.figure} vs ${row.baseline} → ${row.ratio} (target ${row.target})`);
}

function homeFacts(home: LargeHome) {
  return {
    size: home.size,
    seed: home.seed,
    distinctPrompts: home.distinctPrompts,
    averagePromptBytes: home.averagePromptBytes,
    promptBytes: home.promptBytes,
    promptsByBuild: home.promptsByBuild,
    dbMb: Math.round(home.dbBytes / 1e5) / 10,
    liveSessions: home.liveSessionIds.length,
  };
}

function machineInfo(loadBefore: number[]) {
  const version = (cmd: string, args: string[]) => {
    try {
      return execFileSync(cmd, args, { encoding: 'utf8' }).trim().split(/\s+/)[0];
    } catch {
      return undefined;
    }
  };
  let bindingSqlite: string | undefined;
  try {
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const Database = require('better-sqlite3') as typeof import('better-sqlite3');
    const db = new Database(':memory:');
    bindingSqlite = String((db.prepare('SELECT sqlite_version() AS v').get() as { v: string }).v);
    db.close();
  } catch {
    /* not loadable here */
  }
  return {
    platform: `${os.platform()} ${os.release()}`,
    cpu: os.cpus()[0]?.model ?? 'unknown',
    cores: os.cpus().length,
    memoryGb: Math.round(os.totalmem() / 1e8) / 10,
    node: process.version,
    sqlite3Cli: version('sqlite3', ['--version']),
    bindingSqlite,
    loadAverageBefore: loadBefore.map((v) => Math.round(v * 100) / 100),
    loadAverageAfter: os.loadavg().map((v) => Math.round(v * 100) / 100),
  };
}

main().catch((error: unknown) => {
  process.stderr.write(`bench failed: ${(error as Error)?.stack ?? String(error)}\n`);
  process.exit(1);
});
