// `npm run bench` (full sizes) and `npm run bench -- --quick` (small sizes, for CI): generates (or
// reuses) the large Hermes homes, measures everything in one run, and writes
// bench/results/latest.json (full) or bench/results/quick.json (quick), then docs/BENCHMARKS.md
// from whichever results exist. Options: --runs N (cold runs per side), --no-huge (skip the
// 100,000-session variant), --keep (keep the working copies).
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { measureCold } from './cold';
import { ensureLargeHome, SIZES, workingCopy, type HomeSize, type LargeHome } from './largeHome';
import { measureLsp, measureLspStartup, type LspPlan } from './lsp';
import { buildResults, RESULTS_DIR, writeDocs, type BenchResults } from './report';

interface Args {
  readonly quick: boolean;
  readonly runs: number | undefined;
  readonly huge: boolean;
  readonly keep: boolean;
}

function parseArgs(argv: readonly string[]): Args {
  const runsAt = argv.indexOf('--runs');
  const runs = runsAt >= 0 ? Number(argv[runsAt + 1]) : undefined;
  if (runs !== undefined && !(Number.isInteger(runs) && runs > 0)) throw new Error('--runs takes a positive integer');
  return { quick: argv.includes('--quick'), runs, huge: !argv.includes('--no-huge'), keep: argv.includes('--keep') };
}

const PLANS: Record<'quick' | 'full', { coldRuns: number; lsp: LspPlan; hugeColdRuns: number }> = {
  quick: { coldRuns: 5, hugeColdRuns: 0, lsp: { reevalRuns: 8, hoverRuns: 150, writerTurns: 240, writerRounds: 2, writerIntervalMs: 25, refreshGapMs: 150 } },
  full: { coldRuns: 15, hugeColdRuns: 5, lsp: { reevalRuns: 30, hoverRuns: 400, writerTurns: 800, writerRounds: 4, writerIntervalMs: 25, refreshGapMs: 200 } },
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

  let huge: BenchResults['huge'];
  if (mode === 'full' && args.huge) {
    const hugeHome = workingCopy(ensureLargeHome(SIZES.huge, undefined, { log }), path.join(workRoot, SIZES.huge.name));
    log(`huge variant: cold status vs floor (${args.runs ?? plan.hugeColdRuns} runs each), server start and RSS`);
    const hugeCold = await measureCold(hugeHome, args.runs ?? plan.hugeColdRuns, hugeHome.dir, log);
    const hugeServer = await measureLspStartup(hugeHome);
    huge = { home: homeFacts(hugeHome), cold: hugeCold, server: hugeServer };
    log(`   cold ${hugeCold.coldMs} ms, floor ${hugeCold.floorMs} ms: ${hugeCold.coldRatio}×; server ready in ${hugeServer.startupMs} ms, peak RSS ${hugeServer.rss.peakMb} MB`);
    if (!args.keep) fs.rmSync(hugeHome.dir, { recursive: true, force: true });
  }
  if (!args.keep) fs.rmSync(home.dir, { recursive: true, force: true });

  const results = buildResults({
    mode,
    machine: machineInfo(loadBefore),
    home: homeFacts(home),
    cold,
    lsp,
    huge,
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
