// Loading and running the bad-input corpus (test/fixtures/bad/<case>/expected.json).
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import {
  applyOverlay,
  buildBaseHome,
  fillPlaceholders,
  runSteps,
  type BaseOptions,
  type CaseContext,
  type Step,
} from '../../fixtures/bad/generators';
import { chownTree, cliInProcess, dbBytes, NOBODY, REPO_ROOT, spawnCli, tempDir, type CliRun } from './env';

export const CORPUS_DIR = path.join(REPO_ROOT, 'test', 'fixtures', 'bad');

export interface RunSpec {
  readonly argv: string[];
  readonly exit: number;
  /** Substrings of stdout / stderr / either, placeholders filled. */
  readonly out?: string[];
  readonly err?: string[];
  readonly text?: string[];
  readonly notText?: string[];
  /** `nobody`: run as uid 65534 (the tree is handed to it), so permissions apply. */
  readonly as?: 'root' | 'nobody';
  /** Run as a child process (hang-prone input, memory-heavy input). */
  readonly spawn?: boolean;
  /** `readonly`: the case directory bind-mounted read-only in a private mount namespace. */
  readonly mount?: 'readonly';
  /** Do not add `--home {home}`. */
  readonly noHome?: boolean;
  readonly env?: Record<string, string>;
  /** The healthy profile and its session are still listed. */
  readonly listsHealthy?: boolean;
  /** state.db (and its -wal/-journal) keep their bytes; default: true except for a successful refresh. */
  readonly dbUnchanged?: boolean;
  readonly maxMs?: number;
}

export interface CaseSpec {
  readonly description: string;
  readonly base?: BaseOptions & { targetName?: string };
  readonly steps?: Step[];
  readonly runs: RunSpec[];
  /** Part of the language-server subset: the profile's `unavailable`/`problems` must hold these. */
  readonly lsp?: { readonly message: string[] };
}

export interface LoadedCase {
  readonly name: string;
  readonly dir: string;
  readonly spec: CaseSpec;
}

export function loadCorpus(): LoadedCase[] {
  return fs
    .readdirSync(CORPUS_DIR, { withFileTypes: true })
    .filter((d) => d.isDirectory() && fs.existsSync(path.join(CORPUS_DIR, d.name, 'expected.json')))
    .map((d) => ({ name: d.name, dir: path.join(CORPUS_DIR, d.name), spec: JSON.parse(fs.readFileSync(path.join(CORPUS_DIR, d.name, 'expected.json'), 'utf8')) as CaseSpec }))
    .sort((a, b) => a.name.localeCompare(b.name));
}

/** Builds a case's home (base, overlay, build steps, hand-over to nobody when needed, arm steps). */
export async function prepareCase(loaded: LoadedCase): Promise<CaseContext> {
  const dir = tempDir('hermes-bad-');
  const ctx = buildBaseHome(dir, loaded.spec.base ?? {});
  ctx.vars.dir = dir;
  applyOverlay(loaded.dir, ctx);
  await runSteps(ctx, loaded.spec.steps ?? [], 'build');
  if (loaded.spec.runs.some((r) => r.as === 'nobody')) chownTree(dir);
  await runSteps(ctx, loaded.spec.steps ?? [], 'arm');
  return ctx;
}

export async function undoCase(ctx: CaseContext): Promise<void> {
  for (const undo of ctx.undo.splice(0).reverse()) await undo();
}

function readOnlyMount(dir: string) {
  return (node: string, args: string[]) => ({
    cmd: 'unshare',
    args: ['-m', 'sh', '-c', 'mount --bind "$1" "$1" && mount -o remount,bind,ro "$1" || exit 99; shift; exec "$@"', 'sh', dir, node, ...args],
  });
}

/** Runs one command of a case and checks everything the corpus promises about it. */
export async function checkRun(name: string, ctx: CaseContext, run: RunSpec): Promise<CliRun> {
  const fill = (s: string) => fillPlaceholders(s, ctx.vars);
  const given = run.argv.map(fill);
  const argv = run.noHome ? given : [given[0]!, '--home', ctx.root, ...given.slice(1)];
  const env = Object.fromEntries(Object.entries(run.env ?? {}).map(([k, v]) => [k, fill(v)]));
  const label = `${name}: hermes-lens ${argv.join(' ')}${run.as === 'nobody' ? ' (as nobody)' : ''}${run.mount ? ' (read-only mount)' : ''}`;
  const before = dbBytes(ctx.target.dbFile);
  const result =
    run.as === 'nobody' || run.spawn || run.mount
      ? await spawnCli(argv, {
          ...(run.as === 'nobody' ? NOBODY : {}),
          env: { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: ctx.dir, ...env },
          cwd: ctx.dir,
          timeoutMs: run.maxMs ?? 60_000,
          ...(run.mount ? { wrap: readOnlyMount(ctx.dir) } : {}),
        })
      : cliInProcess(argv, env);
  const output = `${result.stdout}\n${result.stderr}`;
  const show = `\n--- stdout\n${result.stdout}--- stderr\n${result.stderr}`;
  assert.notEqual(result.code, 99, `${label}: the read-only bind mount could not be made${show}`);
  assert.equal(result.signal, null, `${label}: killed by ${result.signal} (hung past ${run.maxMs ?? 60_000} ms?)${show}`);
  assert.equal(result.code, run.exit, `${label}: exit code${show}`);
  for (const s of run.out ?? []) assert.ok(result.stdout.includes(fill(s)), `${label}: stdout lacks ${JSON.stringify(fill(s))}${show}`);
  for (const s of run.err ?? []) assert.ok(result.stderr.includes(fill(s)), `${label}: stderr lacks ${JSON.stringify(fill(s))}${show}`);
  for (const s of run.text ?? []) assert.ok(output.includes(fill(s)), `${label}: output lacks ${JSON.stringify(fill(s))}${show}`);
  for (const s of run.notText ?? []) assert.ok(!output.includes(fill(s)), `${label}: output holds ${JSON.stringify(fill(s))}${show}`);
  // A clear message: one line on stderr naming the command, never a stack trace.
  assert.doesNotMatch(output, /^\s+at .+:\d+:\d+\)?$/m, `${label}: a stack trace reached the user${show}`);
  if (result.code !== 0) {
    assert.match(result.stderr, new RegExp(`^hermes-lens ${argv[0]}: \\S`), `${label}: not a hermes-lens message${show}`);
    assert.equal(result.stderr.trimEnd().split('\n').length, 1, `${label}: more than one line on stderr${show}`);
  }
  if (run.listsHealthy) {
    assert.ok(result.stdout.includes('Profile healthy') && result.stdout.includes(ctx.vars.healthySession!), `${label}: the healthy profile is no longer listed${show}`);
  }
  const mayWrite = argv[0] === 'refresh' && run.exit === 0 && !argv.includes('--dry-run');
  if (run.dbUnchanged ?? !mayWrite) assert.deepEqual(dbBytes(ctx.target.dbFile), before, `${label}: state.db bytes changed`);
  if (run.maxMs !== undefined) assert.ok(result.ms <= run.maxMs, `${label}: took ${result.ms} ms (limit ${run.maxMs})`);
  return result;
}
