// Measure 1: a cold `hermes-lens status --json` of the large profile (a fresh Node process running
// dist/cli.js) against the floor: the sqlite3 command-line tool reading the rows and columns the
// engine needs for that report, in the same run, alternating the two so both see the same machine.
import { spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { createStateDb, type SchemaLayout } from '../server/demo/hermes/schema';
import { CODE_CACHE_GENERATIONS } from '../server/cli/codeCache';
import { checkSoulEdited, checkUntouched } from './homeVerdicts';
import { ensureFakeInstall, type FakeInstallTree } from './fakeInstall';
import type { LargeHome } from './largeHome';
import { epochMs, median, round } from './stats';

export const CLI = path.resolve(__dirname, '../../dist/cli.js');
const NODE_FLOOR_READER = path.join(__dirname, 'nodeFloorReader.js');

/**
 * What `status` needs from state.db, read by sqlite3: the live sessions with the columns
 * StateStore.listSessions reads, the count of sessions holding a stored prompt, each distinct stored
 * prompt of a live session (the whole text), the live transcript sizes grouped per session, and
 * state_meta. Without `--all`, ended sessions are only counted. Before v25 (`v24`) a prompt is
 * stored inline in every session's row: each live session's copy is read, as the engine reads it
 * to know which text it holds.
 */
export function floorSql(layout: SchemaLayout = 'v30'): string {
  const inline = layout === 'v24';
  return `
SELECT s.id, s.source, s.model, s.model_config,${inline ? '' : ' s.system_prompt_hash,'} s.parent_session_id, s.started_at, s.ended_at,
       s.end_reason, s.message_count, s.cwd, s.billing_provider, s.billing_mode, s.title,
       COALESCE(s.last_activity_at, s.started_at) AS last_activity, s.tool_names
  FROM sessions s WHERE s.ended_at IS NULL ORDER BY last_activity DESC, s.id DESC;
${
  inline
    ? `SELECT COUNT(*) FROM sessions s WHERE COALESCE(s.system_prompt, '') <> '';
SELECT id, system_prompt FROM sessions WHERE ended_at IS NULL AND COALESCE(system_prompt, '') <> '';`
    : `SELECT COUNT(*) FROM sessions s LEFT JOIN system_prompts sp ON sp.hash = s.system_prompt_hash
 WHERE sp.hash IS NOT NULL OR COALESCE(s.system_prompt, '') <> '';
SELECT hash, prompt FROM system_prompts WHERE hash IN (SELECT system_prompt_hash FROM sessions WHERE ended_at IS NULL);`
}
SELECT session_id, COUNT(*),
       SUM(COALESCE(LENGTH(CAST(content AS BLOB)), 0) + COALESCE(LENGTH(CAST(tool_calls AS BLOB)), 0)),
       SUM(COALESCE(token_count, 0)),
       SUM(CASE WHEN token_count IS NULL THEN COALESCE(LENGTH(CAST(content AS BLOB)), 0) + COALESCE(LENGTH(CAST(tool_calls AS BLOB)), 0) ELSE 0 END)
  FROM messages WHERE session_id IN (SELECT id FROM sessions WHERE ended_at IS NULL) AND active = 1 GROUP BY session_id;
SELECT key, value FROM state_meta;
`;
}

export interface ProcessRun {
  readonly wallMs: number;
  /** user + system CPU, from GNU time when installed. */
  readonly cpuMs: number | undefined;
  readonly maxRssKb: number | undefined;
  readonly stdoutBytes: number;
  readonly stdout?: string;
}

export interface ColdResult {
  readonly runs: number;
  readonly coldMs: number;
  readonly floorMs: number;
  readonly coldRatio: number;
  readonly coldCpuMs: number | undefined;
  readonly floorCpuMs: number | undefined;
  readonly cpuRatio: number | undefined;
  /** The same command with empty caches (the very first run on a machine: no token counts, no kept analyses). */
  readonly coldFirstRunMs: number;
  /**
   * The same command right after an edit of SOUL.md: every kept verdict is for other sources, so
   * every distinct prompt is read, parsed and judged again (token counts are still on disk).
   */
  readonly afterSoulEditMs: number;
  /** `node dist/cli.js --help`: starting Node and loading the CLI bundle, no work. */
  readonly cliStartupMs: number;
  /**
   * `status` of the same profile files (SOUL.md, config, skills, memory, projects) over a state.db
   * with no sessions: what any status costs before the first row, the floor's whole subject.
   */
  readonly noSessionsMs: number;
  readonly coldPeakRssMb: number | undefined;
  readonly statusJsonBytes: number;
  /** `node -e 0`: Node's own start, before any code of the lens. */
  readonly nodeStartMs: number;
  /**
   * The floor's statements run from Node (nodeFloorReader.ts: better-sqlite3 with the page cache of a status, every value taken
   * into JavaScript): Node's start and the rows, what no status of this home can go below.
   */
  readonly nodeFloorMs: number;
  /**
   * Where the environment sets NODE_EXTRA_CA_CERTS (this workplace does, for its package proxy):
   * Node reads and parses those certificates at every start, before any script runs (nodejs/node
   * issue 40524), though the lens never opens a TLS connection. The same runs without it, for
   * comparison; the figures above keep the environment as it is.
   */
  readonly withoutExtraCaCerts?: { readonly nodeStartMs: number; readonly coldMs: number; readonly coldRatio: number };
  /**
   * The same status with the home served by a Hermes installation without refresh-prompts
   * (`--hermes-install`, bench/fakeInstall.ts): its first command reads every module of its CLI
   * looking for the subcommand; later ones take that reading from the cache folder after stat()ing
   * the files. Older results lack it.
   */
  readonly servedByInstall?: {
    readonly modules: number;
    readonly mb: number;
    readonly firstCommandMs: number;
    readonly coldMs: number;
    /** The same runs' plain cold status, paired with them. */
    readonly withoutMs: number;
  };
  readonly samples: { readonly cold: number[]; readonly floor: number[]; readonly nodeFloor: number[]; readonly cliStartup: number[]; readonly noSessions: number[]; readonly afterSoulEdit: number[]; readonly nodeStart: number[] };
}

const GNU_TIME = '/usr/bin/time';

/** Runs a command to completion, timing it from spawn to exit (output drained). */
export function runTimed(command: string, args: readonly string[], options: { env?: NodeJS.ProcessEnv; stdinFile?: string; keepStdout?: boolean } = {}): Promise<ProcessRun> {
  const timeFile = path.join(os.tmpdir(), `lens-bench-time-${process.pid}-${Math.random().toString(36).slice(2)}.txt`);
  const withTime = fs.existsSync(GNU_TIME);
  const [cmd, argv] = withTime ? [GNU_TIME, ['-f', '%e %U %S %M', '-o', timeFile, command, ...args]] : [command, [...args]];
  const stdin = options.stdinFile ? fs.openSync(options.stdinFile, 'r') : 'ignore';
  return new Promise((resolve, reject) => {
    const started = epochMs();
    const child = spawn(cmd, argv, { stdio: [stdin, 'pipe', 'pipe'], env: options.env ?? process.env });
    let bytes = 0;
    const chunks: Buffer[] = [];
    let stderr = '';
    child.stdout!.on('data', (chunk: Buffer) => {
      bytes += chunk.length;
      if (options.keepStdout) chunks.push(chunk);
    });
    child.stderr!.on('data', (chunk: Buffer) => (stderr += String(chunk)));
    child.on('error', reject);
    child.on('close', (code) => {
      const wallMs = epochMs() - started;
      if (typeof stdin === 'number') fs.closeSync(stdin);
      if (code !== 0) return reject(new Error(`${command} ${args.join(' ')} exited with ${code}: ${stderr.trim().slice(0, 500)}`));
      let cpuMs: number | undefined;
      let maxRssKb: number | undefined;
      if (withTime) {
        try {
          const [, user, sys, rss] = fs.readFileSync(timeFile, 'utf8').trim().split(/\s+/).map(Number);
          cpuMs = ((user ?? 0) + (sys ?? 0)) * 1000;
          maxRssKb = rss;
        } catch {
          /* GNU time wrote nothing: no CPU figure */
        }
        fs.rmSync(timeFile, { force: true });
      }
      resolve({ wallMs, cpuMs, maxRssKb, stdoutBytes: bytes, ...(options.keepStdout ? { stdout: Buffer.concat(chunks).toString('utf8') } : {}) });
    });
  });
}

export async function measureCold(home: LargeHome, runs: number, workDir: string, log: (line: string) => void): Promise<ColdResult> {
  const floorFile = path.join(workDir, 'floor.sql');
  fs.writeFileSync(floorFile, floorSql(home.size.layout));
  const tokenCache = path.join(workDir, 'token-cache');
  const env = { ...process.env, HERMES_LENS_TOKEN_CACHE: tokenCache, HERMES_HOME: home.root };
  // Made first, so its files are old enough to be kept (RACY_MS) by the time it is measured.
  const install = ensureFakeInstall();
  const statusArgs = [CLI, 'status', '--json', '--home', home.root];
  const floorArgs = ['-readonly', home.dbFile];
  const nodeFloorArgs = [NODE_FLOOR_READER, home.dbFile, floorFile];

  // The very first run: empty caches (the tokenizer loads and counts every paragraph, nothing is kept).
  fs.rmSync(tokenCache, { recursive: true, force: true });
  const first = await runTimed(process.execPath, statusArgs, { env, keepStdout: true });
  checkUntouched(first.stdout!, home);
  // Warm both (page cache) once more before timing, and run each command of the lens until its
  // code cache has settled: the first runs after an install add what they compiled to it, each
  // writing it again (codeCache.ts), which later runs do not.
  await runTimed('sqlite3', floorArgs, { stdinFile: floorFile });
  const filesOnly = profileWithoutSessions(home, path.join(workDir, 'no-sessions'));
  const filesOnlyArgs = [CLI, 'status', '--json', '--home', filesOnly];
  for (let i = 0; i < CODE_CACHE_GENERATIONS; i++) {
    for (const args of [statusArgs, filesOnlyArgs, [CLI, '--help']]) await runTimed(process.execPath, args, { env });
  }

  const withoutCa = process.env.NODE_EXTRA_CA_CERTS ? withoutVariable(env, 'NODE_EXTRA_CA_CERTS') : undefined;
  const cold: ProcessRun[] = [];
  const floor: ProcessRun[] = [];
  const nodeFloor: ProcessRun[] = [];
  const startup: ProcessRun[] = [];
  const noSessions: ProcessRun[] = [];
  const nodeStart: ProcessRun[] = [];
  const coldWithoutCa: ProcessRun[] = [];
  const nodeStartWithoutCa: ProcessRun[] = [];
  for (let i = 0; i < runs; i++) {
    // Alternate the order so neither always runs right after the other.
    const pair = i % 2 === 0 ? ['floor', 'cold'] : ['cold', 'floor'];
    for (const which of pair) {
      if (which === 'floor') floor.push(await runTimed('sqlite3', floorArgs, { stdinFile: floorFile }));
      else cold.push(await runTimed(process.execPath, statusArgs, { env }));
    }
    nodeFloor.push(await runTimed(process.execPath, nodeFloorArgs, { env }));
    startup.push(await runTimed(process.execPath, [CLI, '--help'], { env }));
    noSessions.push(await runTimed(process.execPath, filesOnlyArgs, { env }));
    nodeStart.push(await runTimed(process.execPath, ['-e', '0'], { env }));
    if (withoutCa) {
      coldWithoutCa.push(await runTimed(process.execPath, statusArgs, { env: withoutCa }));
      nodeStartWithoutCa.push(await runTimed(process.execPath, ['-e', '0'], { env: withoutCa }));
    }
    log(`    run ${i + 1}/${runs}: cold ${cold.at(-1)!.wallMs.toFixed(0)} ms, floor ${floor.at(-1)!.wallMs.toFixed(0)} ms`);
  }
  // After an edit of SOUL.md, as a user runs status after saving it: a new sentence each time.
  const soul = path.join(home.profileDir, 'SOUL.md');
  const soulText = fs.readFileSync(soul, 'utf8');
  const afterEdit: ProcessRun[] = [];
  for (let i = 0; i < Math.min(runs, 5); i++) {
    fs.appendFileSync(soul, `\nWhen a benchmark run ${i + 1} edits this file, sessions go stale.\n`);
    const run = await runTimed(process.execPath, statusArgs, { env, keepStdout: i === 0 });
    if (i === 0) checkSoulEdited(run.stdout!, home);
    afterEdit.push(run);
  }
  fs.writeFileSync(soul, soulText);
  await runTimed(process.execPath, statusArgs, { env }); // the kept analyses match SOUL.md again
  const servedByInstall = await measureServedByInstall(install, statusArgs, env, tokenCache, runs);
  const med = (list: ProcessRun[], pick: (r: ProcessRun) => number | undefined) => {
    const values = list.map(pick).filter((v): v is number => v !== undefined);
    return values.length === list.length ? median(values) : undefined;
  };
  const coldMs = med(cold, (r) => r.wallMs)!;
  const floorMs = med(floor, (r) => r.wallMs)!;
  const coldCpu = med(cold, (r) => r.cpuMs);
  const floorCpu = med(floor, (r) => r.cpuMs);
  const rss = med(cold, (r) => r.maxRssKb);
  return {
    runs,
    coldMs: round(coldMs, 1),
    floorMs: round(floorMs, 1),
    coldRatio: round(coldMs / floorMs, 2),
    coldCpuMs: coldCpu === undefined ? undefined : round(coldCpu, 1),
    floorCpuMs: floorCpu === undefined ? undefined : round(floorCpu, 1),
    cpuRatio: coldCpu !== undefined && floorCpu ? round(coldCpu / floorCpu, 2) : undefined,
    coldFirstRunMs: round(first.wallMs, 1),
    cliStartupMs: round(median(startup.map((r) => r.wallMs)), 1),
    noSessionsMs: round(median(noSessions.map((r) => r.wallMs)), 1),
    afterSoulEditMs: round(median(afterEdit.map((r) => r.wallMs)), 1),
    coldPeakRssMb: rss === undefined ? undefined : round(rss / 1024, 1),
    statusJsonBytes: first.stdoutBytes,
    nodeStartMs: round(median(nodeStart.map((r) => r.wallMs)), 1),
    nodeFloorMs: round(median(nodeFloor.map((r) => r.wallMs)), 1),
    ...(withoutCa ? { withoutExtraCaCerts: withoutCaFigures(nodeStartWithoutCa, coldWithoutCa, floorMs) } : {}),
    servedByInstall,
    samples: {
      cold: cold.map((r) => round(r.wallMs, 1)),
      floor: floor.map((r) => round(r.wallMs, 1)),
      nodeFloor: nodeFloor.map((r) => round(r.wallMs, 1)),
      cliStartup: startup.map((r) => round(r.wallMs, 1)),
      noSessions: noSessions.map((r) => round(r.wallMs, 1)),
      afterSoulEdit: afterEdit.map((r) => round(r.wallMs, 1)),
      nodeStart: nodeStart.map((r) => round(r.wallMs, 1)),
    },
  };
}

/**
 * Status of the home with `--hermes-install` naming the generated installation, in a cache folder
 * of its own (a copy of the settled one without the code cache, which is settled again for this
 * command line, and without any protocol reading): its first command, then `runs` paired with the
 * plain status.
 */
async function measureServedByInstall(install: FakeInstallTree, statusArgs: readonly string[], env: NodeJS.ProcessEnv, tokenCache: string, runs: number): Promise<NonNullable<ColdResult['servedByInstall']>> {
  const cache = `${tokenCache}-install`;
  fs.rmSync(cache, { recursive: true, force: true });
  fs.cpSync(tokenCache, cache, { recursive: true, filter: (source) => !/[\\/](code-cache|protocol-readings-v1)$/.test(source) });
  const installEnv = { ...env, HERMES_LENS_TOKEN_CACHE: cache };
  const args = [...statusArgs, '--hermes-install', install.dir];
  for (let i = 0; i < CODE_CACHE_GENERATIONS; i++) await runTimed(process.execPath, args, { env: installEnv });
  fs.rmSync(path.join(cache, 'protocol-readings-v1'), { recursive: true, force: true });
  const first = await runTimed(process.execPath, args, { env: installEnv });
  const served: ProcessRun[] = [];
  const plain: ProcessRun[] = [];
  for (let i = 0; i < runs; i++) {
    served.push(await runTimed(process.execPath, args, { env: installEnv }));
    plain.push(await runTimed(process.execPath, statusArgs, { env }));
  }
  fs.rmSync(cache, { recursive: true, force: true });
  return {
    modules: install.modules,
    mb: round(install.bytes / 1e6, 1),
    firstCommandMs: round(first.wallMs, 1),
    coldMs: round(median(served.map((r) => r.wallMs)), 1),
    withoutMs: round(median(plain.map((r) => r.wallMs)), 1),
  };
}

function withoutCaFigures(nodeStart: ProcessRun[], cold: ProcessRun[], floorMs: number): NonNullable<ColdResult['withoutExtraCaCerts']> {
  const coldMs = median(cold.map((r) => r.wallMs));
  return { nodeStartMs: round(median(nodeStart.map((r) => r.wallMs)), 1), coldMs: round(coldMs, 1), coldRatio: round(coldMs / floorMs, 2) };
}

function withoutVariable(env: NodeJS.ProcessEnv, name: string): NodeJS.ProcessEnv {
  const copy = { ...env };
  delete copy[name];
  return copy;
}

/** A copy of the home's Hermes root with every profile file but a state.db holding no sessions. */
function profileWithoutSessions(home: LargeHome, into: string): string {
  fs.rmSync(into, { recursive: true, force: true });
  const root = path.join(into, 'hermes');
  fs.cpSync(home.root, root, { recursive: true, filter: (source) => !/^state\.db(?:-wal|-shm|-journal)?$/.test(path.basename(source)) });
  createStateDb(path.join(root, 'state.db'), { layout: home.size.layout ?? 'v30' });
  return root;
}
