// The Hermes side of the real-client tiers (e2e, in-host, Neovim): a generated demo home, what the
// CLI (the engine, outside any editor) says about it, and Hermes' state.db read directly with
// better-sqlite3 (readonly), never through the extension.
import { spawnSync } from 'node:child_process';
import * as crypto from 'node:crypto';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import Database from 'better-sqlite3';
import { generateDemoHome, type DemoManifest } from '../../../server/demo/demoHome';
import { writeHermesInstall, type FakeInstall } from '../../../server/demo/hermesInstall';
import { formatUsd } from '../../../server/hermes/cost/refreshCost';
import { REPO_ROOT } from './codeServer';
import type { PrefixFamiliesDto } from '../../../shared/prefixFamilies';

/** The bundled CLI (`npm run build` / `npm run package` writes it). */
export const CLI = path.join(REPO_ROOT, 'dist', 'cli.js');
/** The bundled language server. */
export const SERVER = path.join(REPO_ROOT, 'dist', 'server.js');

/**
 * The demo is generated as if it were this many seconds old. Costs depend on whether each session's
 * prompt cache is still warm (5 min for machine-paced sources, 1 h for people), and the extension and
 * the CLI compute them at different moments. Ten minutes back, no cache of the demo expires during
 * the next 30 minutes (its 5-minute caches are already cold, its warm 1-hour caches have ≥ 30 min
 * left), so the figures the UI shows and the CLI prints agree for a whole run: no flaky cents.
 */
export const DEMO_AGE_SECONDS = 600;

export interface DemoHome {
  /** The temp folder holding `hermes/` (the root home) and `projects/`. */
  readonly dir: string;
  readonly manifest: DemoManifest;
  /** The root home (default profile), also the folder the e2e workbench opens. */
  readonly root: string;
  /** `<root>/SOUL.md` */
  readonly soul: string;
  /** `<root>/hermes-agent`: where the installer puts Hermes (a fake installation when `hermes` was given). */
  readonly hermesInstall: string;
  profile(name: string): DemoManifest['profiles'][number];
  /** Session id by the demo's label (`atlas-tui`, `work-slack`, …). */
  id(label: string): string;
  dispose(): void;
}

/**
 * Generates the demo home into a fresh temp folder; with `hermes`, a fake Hermes installation of that
 * build where the installer puts it (else none is found: Hermes runs elsewhere, as a remote gateway).
 */
export function createDemoHome(prefix = 'hermes-lens-demo', hermes?: FakeInstall): DemoHome {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), `${prefix}-`));
  const manifest = generateDemoHome(path.join(dir, 'demo'), { now: Date.now() / 1000 - DEMO_AGE_SECONDS });
  const hermesInstall = path.join(manifest.root, 'hermes-agent');
  if (hermes) writeHermesInstall(hermesInstall, hermes);
  return {
    dir,
    manifest,
    root: manifest.root,
    soul: path.join(manifest.root, 'SOUL.md'),
    hermesInstall,
    profile(name) {
      const p = manifest.profiles.find((x) => x.name === name);
      if (!p) throw new Error(`no profile ${name} in the demo`);
      return p;
    },
    id(label) {
      const id = manifest.labels[label];
      if (!id) throw new Error(`no session labelled ${label} in the demo`);
      return id;
    },
    dispose() {
      if (!process.env.HERMES_LENS_E2E_KEEP) fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** A session as `hermes-lens status --json` prints it (the fields the tests read). */
export interface CliSession {
  id: string;
  title: string | null;
  model: string | null;
  state: 'fresh' | 'stale' | 'pending' | 'no-prompt' | 'ended';
  reasons: Array<{ source: string; path: string; change: string; detail: string }>;
  requestedEpoch: number;
  stampedEpoch: number;
  unadoptableRequest: boolean;
  adoption: { state: 'pending' | 'adopted' | 'adopted-stamp-unread' | 'not-adopted'; epoch: number } | null;
  otherBuild: string | null;
  cacheWarm: boolean;
  refreshCostUsd: number | null;
  refreshCostColdUsd: number | null;
  lastActivityAt: number | null;
  ttlSeconds: number;
  cacheExpiresAt: number | null;
  systemPromptTokens: number;
}

export interface CliProfile {
  name: string;
  dbFile: string;
  home: string;
  requestedEpoch: number;
  totals: { sessions: number; stale: number; pending: number; fresh: number; staleRefreshCostUsd: number; unknownCost: number };
  sessions: CliSession[];
}

export interface CliStatus {
  home: string;
  hermes: { version: string | null; path: string | null; refresh: boolean | null; problem: string | null; summary: string };
  /** The SQLite binding the CLI read state.db with (in the Node.js that runs the tests). */
  sqlite: { driver: string | null; version: string | null; problem: string | null };
  profiles: CliProfile[];
}

/** `node dist/cli.js status --json --home <root> --all-profiles`: the engine's view, outside the editor. */
export function cliStatus(root: string): CliStatus {
  if (!fs.existsSync(CLI)) throw new Error(`${CLI} not found: run \`npm run build\` first`);
  const r = spawnSync(process.execPath, [CLI, 'status', '--json', '--home', root, '--all-profiles'], { encoding: 'utf8', timeout: 60_000 });
  if (r.status !== 0) throw new Error(`hermes-lens status failed (exit ${r.status}):\n${r.stderr}`);
  return JSON.parse(r.stdout) as CliStatus;
}

/** `node dist/cli.js prefixes --json`: the home's prefix families and where they part. */
export function cliPrefixes(root: string): PrefixFamiliesDto {
  const r = spawnSync(process.execPath, [CLI, 'prefixes', '--json', '--home', root], { encoding: 'utf8', timeout: 60_000 });
  if (r.status !== 0) throw new Error(`hermes-lens prefixes failed (exit ${r.status}):\n${r.stderr}`);
  return JSON.parse(r.stdout) as PrefixFamiliesDto;
}

/** `node dist/cli.js prompt-size --json --session <id>`: the size of each tier of a session's stored prompt. */
export function cliPromptSize(
  root: string,
  profile: string,
  sessionId: string,
): { rows: Array<{ label: string; bytes: number; tokens: number }>; totalBytes: number; totalTokens: number; tools: { count: number; json_bytes: number; tokens: number }; toolsets_breakdown: Array<{ toolset: string; tokens: number }> } {
  const r = spawnSync(process.execPath, [CLI, 'prompt-size', '--json', '--home', root, '-p', profile, '--session', sessionId], { encoding: 'utf8', timeout: 60_000 });
  if (r.status !== 0) throw new Error(`hermes-lens prompt-size failed (exit ${r.status}):\n${r.stderr}`);
  return JSON.parse(r.stdout);
}

export function cliProfile(status: CliStatus, name: string): CliProfile {
  const p = status.profiles.find((x) => x.name === name);
  if (!p) throw new Error(`no profile ${name} in: ${status.profiles.map((x) => x.name).join(', ')}`);
  return p;
}

export function totals(status: CliStatus): { stale: number; pending: number; cost: number } {
  return status.profiles.reduce(
    (t, p) => ({ stale: t.stale + p.totals.stale, pending: t.pending + p.totals.pending, cost: t.cost + p.totals.staleRefreshCostUsd }),
    { stale: 0, pending: 0, cost: 0 },
  );
}

/** What the status item must say (`Hermes: 3 stale · ≈ $0.84`), from the CLI's figures. */
export function expectedStatusText(status: CliStatus): string {
  const t = totals(status);
  if (t.stale > 0) return `Hermes: ${t.stale} stale · ${formatUsd(t.cost, true)}`;
  if (t.pending > 0) return `Hermes: ${t.pending} pending`;
  return 'Hermes: all current';
}

/** Stale sessions of `profile` whose reasons name `file`, and what refreshing them costs now. */
export function staleBecauseOf(status: CliStatus, profile: string, file: string): { sessions: CliSession[]; cost: number; unknown: number } {
  const sessions = cliProfile(status, profile).sessions.filter((s) => s.state === 'stale' && s.reasons.some((r) => r.path === file));
  return {
    sessions,
    cost: sessions.reduce((n, s) => n + (s.refreshCostUsd ?? 0), 0),
    unknown: sessions.filter((s) => s.refreshCostUsd === null).length,
  };
}

/** `≈ $0.20` etc., as every view of the lens prints money. */
export const usd = (amount: number): string => formatUsd(amount, true);

function withDb<T>(dbFile: string, read: (db: Database.Database) => T): T {
  const db = new Database(dbFile, { readonly: true, fileMustExist: true });
  try {
    return read(db);
  } finally {
    db.close();
  }
}

/** The epoch a session must satisfy: the larger of the profile-wide request and its own. */
export function requestedEpochOf(meta: Map<string, string>, sessionId: string): number {
  return Math.max(Number(meta.get('prompt_refresh_epoch') ?? 0), Number(meta.get(`prompt_refresh_epoch:${sessionId}`) ?? 0));
}

/** Hermes' `state_meta` table (where refresh requests live: docs/HERMES-INSTALLS.md §4). */
export function readStateMeta(dbFile: string): Map<string, string> {
  return withDb(dbFile, (db) => new Map((db.prepare('SELECT key, value FROM state_meta').all() as Array<{ key: string; value: unknown }>).map((r) => [r.key, String(r.value)])));
}

/** A session's `model_config` JSON (where Hermes stamps the epoch it adopted). */
export function readModelConfig(dbFile: string, sessionId: string): Record<string, unknown> {
  return withDb(dbFile, (db) => {
    const row = db.prepare('SELECT model_config FROM sessions WHERE id = ?').get(sessionId) as { model_config: string | null } | undefined;
    if (!row) throw new Error(`no session ${sessionId} in ${dbFile}`);
    return row.model_config ? (JSON.parse(row.model_config) as Record<string, unknown>) : {};
  });
}

/** Whether a session still holds a stored prompt (by hash, or inline before Hermes' v25). */
export function holdsStoredPrompt(dbFile: string, sessionId: string): boolean {
  return withDb(dbFile, (db) => {
    // Both layouts: the hash column exists from v25 on.
    const row = db.prepare('SELECT * FROM sessions WHERE id = ?').get(sessionId) as { system_prompt_hash?: string | null; system_prompt?: string | null } | undefined;
    if (!row) throw new Error(`no session ${sessionId} in ${dbFile}`);
    return (row.system_prompt_hash ?? null) !== null || (row.system_prompt ?? '') !== '';
  });
}

/**
 * SHA-256 of a file's bytes (to prove that nothing wrote to it). A missing file and an empty one
 * are the same: SQLite creates an empty `-wal` next to a WAL database when a reader opens it.
 */
export function digest(file: string): string {
  const bytes = fs.existsSync(file) ? fs.readFileSync(file) : Buffer.alloc(0);
  return bytes.length === 0 ? '(empty)' : crypto.createHash('sha256').update(bytes).digest('hex');
}
