// Shared plumbing of the reliability suite: where things are, temp dirs, running the CLI (in-process
// or as a real child process, optionally as an unprivileged user), and a hash of a file's bytes.
import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { commandEnv, runCliNow } from '../../support/cliNow';

/** The repository root (this file runs from out/test/reliability/support). */
export const REPO_ROOT = path.resolve(__dirname, '../../../..');
/** The compiled test support directory (children are started from here). */
export const SUPPORT_DIR = __dirname;
/** The unprivileged user root-run tests drop to, so file permissions apply (root ignores them). */
export const NOBODY = { uid: 65534, gid: 65534 } as const;

/**
 * The CLI the suite runs as a process: `$HERMES_LENS_CLI`, else the bundle when it is at least as new
 * as the tsc output (`npm test` builds both), else the tsc output (same sources, always current).
 */
export function cliScript(): string {
  if (process.env.HERMES_LENS_CLI) return path.resolve(process.env.HERMES_LENS_CLI);
  const bundled = path.join(REPO_ROOT, 'dist', 'cli.js');
  const compiled = path.join(REPO_ROOT, 'out', 'server', 'cli', 'main.js');
  try {
    if (fs.statSync(bundled).mtimeMs >= fs.statSync(compiled).mtimeMs) return bundled;
  } catch {
    /* no bundle */
  }
  return compiled;
}

const created: string[] = [];

/** A fresh temp dir (realpath'd), world-traversable so an unprivileged child can reach inside. */
export function tempDir(prefix = 'hermes-rel-'): string {
  const dir = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), prefix)));
  fs.chmodSync(dir, 0o755);
  created.push(dir);
  return dir;
}

export function cleanupTempDirs(): void {
  for (const dir of created.splice(0)) {
    // Restore permissions a case took away, so removal cannot fail half way.
    try {
      fs.rmSync(dir, { recursive: true, force: true });
    } catch {
      spawnSyncQuiet('chmod', ['-R', 'u+rwX', dir]);
      fs.rmSync(dir, { recursive: true, force: true });
    }
  }
}

function spawnSyncQuiet(cmd: string, args: string[]): void {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  require('node:child_process').spawnSync(cmd, args, { stdio: 'ignore' });
}

export interface CliRun {
  readonly code: number | null;
  readonly signal: NodeJS.Signals | null;
  readonly stdout: string;
  readonly stderr: string;
  readonly ms: number;
}

/** `hermes-lens <argv>` in this process (the same `runCli` the binary calls). */
export function cliInProcess(argv: string[], env: NodeJS.ProcessEnv = {}, now = Date.now() / 1000): CliRun {
  let stdout = '';
  let stderr = '';
  const started = Date.now();
  const code = runCliNow(argv, {
    out: (t) => void (stdout += t.endsWith('\n') ? t : t + '\n'),
    err: (t) => void (stderr += t.endsWith('\n') ? t : t + '\n'),
    env: commandEnv({ PATH: process.env.PATH, ...env }),
    now: () => now,
  });
  return { code, signal: null, stdout, stderr, ms: Date.now() - started };
}

export interface SpawnOptions {
  readonly uid?: number;
  readonly gid?: number;
  readonly env?: NodeJS.ProcessEnv;
  readonly cwd?: string;
  /** Killed with SIGKILL after this long (a hang is a failure, never a stuck suite). */
  readonly timeoutMs?: number;
  /** Wrap the command (e.g. `['unshare', '-m', ...]`); receives node and its arguments. */
  readonly wrap?: (node: string, args: string[]) => { cmd: string; args: string[] };
}

/** Runs a Node script as a child process and collects its output. */
export function spawnNode(script: string, argv: string[], options: SpawnOptions = {}): Promise<CliRun> {
  const started = Date.now();
  const base = { cmd: process.execPath, args: [script, ...argv] };
  const { cmd, args } = options.wrap ? options.wrap(base.cmd, base.args) : base;
  const child = spawn(cmd, args, {
    stdio: ['ignore', 'pipe', 'pipe'],
    env: options.env ?? { PATH: process.env.PATH ?? '/usr/bin:/bin' },
    cwd: options.cwd ?? os.tmpdir(),
    ...(options.uid !== undefined ? { uid: options.uid, gid: options.gid ?? options.uid } : {}),
  });
  let stdout = '';
  let stderr = '';
  child.stdout.setEncoding('utf8').on('data', (c: string) => (stdout += c));
  child.stderr.setEncoding('utf8').on('data', (c: string) => (stderr += c));
  const timer = setTimeout(() => child.kill('SIGKILL'), options.timeoutMs ?? 60_000);
  return new Promise((resolve, reject) => {
    child.on('error', (e) => {
      clearTimeout(timer);
      reject(e);
    });
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      resolve({ code, signal, stdout, stderr, ms: Date.now() - started });
    });
  });
}

/** `hermes-lens <argv>` as its own process. */
export function spawnCli(argv: string[], options: SpawnOptions = {}): Promise<CliRun> {
  return spawnNode(cliScript(), argv, options);
}

/** sha256 of a file's bytes, or `absent`. Never call while this process holds an SQLite handle on it. */
export function fileHash(file: string): string {
  try {
    const stat = fs.statSync(file);
    if (!stat.isFile()) return stat.isDirectory() ? 'directory' : 'special';
    return stat.size === 0 ? 'empty' : createHash('sha256').update(fs.readFileSync(file)).digest('hex');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ELOOP' || code === 'EACCES') return code.toLowerCase();
    throw error;
  }
}

/**
 * Hashes of state.db and its -wal/-journal: what "the database's bytes" means. An empty sidecar
 * counts as an absent one (a reader may create an empty -wal; it holds nothing).
 */
export function dbBytes(dbFile: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const suffix of ['', '-wal', '-journal']) {
    const hash = fileHash(dbFile + suffix);
    out[path.basename(dbFile) + suffix] = suffix && hash === 'empty' ? 'enoent' : hash;
  }
  return out;
}

/** chown -R to nobody (for cases that run the CLI unprivileged). */
export function chownTree(dir: string, owner: { uid: number; gid: number } = NOBODY): void {
  const walk = (p: string) => {
    fs.lchownSync(p, owner.uid, owner.gid);
    const st = fs.lstatSync(p);
    if (st.isDirectory()) for (const name of fs.readdirSync(p)) walk(path.join(p, name));
  };
  walk(dir);
}

/** Whether this process may bind-mount a folder read-only in a private mount namespace. */
export function canUseMountNamespace(): boolean {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'hermes-ro-probe-'));
  try {
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const r = require('node:child_process').spawnSync(
      'unshare',
      ['-m', 'sh', '-c', 'mount --bind "$1" "$1" && mount -o remount,bind,ro "$1" && ! touch "$1/probe" 2>/dev/null', 'sh', dir],
      { stdio: 'ignore' },
    );
    return r.status === 0;
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

/** Root may hand files to another user and run the CLI as it (the permission cases need that). */
export function isRoot(): boolean {
  return process.getuid?.() === 0;
}

export function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
