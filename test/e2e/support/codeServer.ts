// Starts a real VS Code workbench (code-server 4.100.3 = VS Code 1.100.3) for end-to-end tests.
// code-server is installed in a cache folder by scripts/e2e-setup.sh (docs/TESTING.md, and
// test/e2e/README.md for the set-up); this module finds it, installs a VSIX, writes user settings,
// starts it on a free loopback port, waits until it answers HTTP, and stops its whole process group.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import * as fs from 'node:fs';
import * as http from 'node:http';
import * as net from 'node:net';
import * as os from 'node:os';
import * as path from 'node:path';

export const CODE_SERVER_VERSION = '4.100.3';
export const HOST = '127.0.0.1';

/** The repository root (the folder whose package.json is hermes-prompt-lens), from src or out/. */
export const REPO_ROOT = findRepoRoot(__dirname);

function findRepoRoot(from: string): string {
  for (let dir = from; ; dir = path.dirname(dir)) {
    const pkg = path.join(dir, 'package.json');
    if (fs.existsSync(pkg)) {
      try {
        if (JSON.parse(fs.readFileSync(pkg, 'utf8')).name === 'hermes-prompt-lens') return dir;
      } catch {
        /* keep walking */
      }
    }
    if (path.dirname(dir) === dir) return path.resolve(__dirname, '../../../..');
  }
}

/** The project's VSIX as `npm run package` writes it; throws with the fix when it is missing. */
export function projectVsix(): string {
  const vsix = process.env.HERMES_LENS_VSIX || path.join(REPO_ROOT, 'hermes-prompt-lens.vsix');
  if (!fs.existsSync(vsix)) throw new Error(`${vsix} not found: run \`npm run package\` first (or set HERMES_LENS_VSIX)`);
  return vsix;
}

/** Where test output (screenshots, logs) goes: $HERMES_LENS_E2E_OUTPUT or <repo>/test-output. */
export function testOutputDir(): string {
  return process.env.HERMES_LENS_E2E_OUTPUT || path.join(REPO_ROOT, 'test-output');
}

/** The cache folder of scripts/e2e-setup.sh: $HERMES_LENS_E2E_CACHE or ~/.cache/hermes-lens-e2e. */
export function e2eCacheDir(): string {
  return process.env.HERMES_LENS_E2E_CACHE || path.join(os.homedir(), '.cache', 'hermes-lens-e2e');
}

/** Path of the code-server launcher: $HERMES_LENS_CODE_SERVER or the one in the cache folder. */
export function codeServerBin(): string {
  return (
    process.env.HERMES_LENS_CODE_SERVER ||
    path.join(e2eCacheDir(), `code-server-${CODE_SERVER_VERSION}`, 'node_modules', '.bin', 'code-server')
  );
}

/**
 * Returns the code-server binary, running scripts/e2e-setup.sh first when it is not installed yet
 * (pass install: false, or set HERMES_LENS_E2E_NO_INSTALL=1, to throw instead).
 */
export function ensureCodeServer(opts: { install?: boolean } = {}): string {
  const bin = codeServerBin();
  if (fs.existsSync(bin)) return bin;
  const install = opts.install ?? !process.env.HERMES_LENS_E2E_NO_INSTALL;
  const script = path.join(REPO_ROOT, 'scripts', 'e2e-setup.sh');
  if (!install) throw new Error(`code-server not found at ${bin}; run ${script} first`);
  const r = spawnSync('bash', [script], { stdio: ['ignore', 'pipe', 'inherit'], encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`${script} failed with exit code ${r.status}`);
  if (!fs.existsSync(bin)) throw new Error(`${script} finished but ${bin} is missing`);
  return bin;
}

/** A free TCP port on 127.0.0.1 (the OS picks it; a tiny race with other processes remains). */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.unref();
    srv.on('error', reject);
    srv.listen(0, HOST, () => {
      const port = (srv.address() as net.AddressInfo).port;
      srv.close(() => resolve(port));
    });
  });
}

/** `vscode-remote://127.0.0.1:<port>/<abs path>`: how the web workbench names a file on the server. */
export function remoteUri(port: number, absPath: string): string {
  const p = path.resolve(absPath).split(path.sep).map(encodeURIComponent).join('/');
  return `vscode-remote://${HOST}:${port}${p.startsWith('/') ? p : '/' + p}`;
}

export interface WorkbenchUrlOptions {
  /** Folder to open (absolute path on this machine). */
  folder?: string;
  /** Extension(s) under development, loaded into the Node extension host (in-host tests). */
  extensionDevelopmentPath?: string | string[];
  /** Module whose `run()` the extension host calls with the real `vscode` API. */
  extensionTestsPath?: string;
}

/**
 * The workbench URL: `http://127.0.0.1:<port>/?folder=<abs>` plus, for in-host test runs, a
 * `payload` parameter holding `[["extensionDevelopmentPath","vscode-remote://…"],["extensionTestsPath","vscode-remote://…"]]`.
 */
export function workbenchUrl(port: number, opts: WorkbenchUrlOptions = {}): string {
  const params = new URLSearchParams();
  if (opts.folder) params.set('folder', path.resolve(opts.folder));
  const payload: [string, string][] = [];
  const devPaths = opts.extensionDevelopmentPath === undefined ? [] : [opts.extensionDevelopmentPath].flat();
  for (const p of devPaths) payload.push(['extensionDevelopmentPath', remoteUri(port, p)]);
  if (opts.extensionTestsPath) payload.push(['extensionTestsPath', remoteUri(port, opts.extensionTestsPath)]);
  if (payload.length) params.set('payload', JSON.stringify(payload));
  const q = params.toString();
  return `http://${HOST}:${port}/${q ? '?' + q : ''}`;
}

/** User settings every e2e run starts from (tests add or override through `settings`). */
export function defaultSettings(opts: { trust: boolean }): Record<string, unknown> {
  return {
    'security.workspace.trust.enabled': opts.trust,
    'security.workspace.trust.startupPrompt': 'once',
    'workbench.startupEditor': 'none',
    'workbench.tips.enabled': false,
    'workbench.enableExperiments': false,
    'workbench.welcomePage.walkthroughs.openOnInstall': false,
    'telemetry.telemetryLevel': 'off',
    'extensions.autoUpdate': false,
    'extensions.autoCheckUpdates': false,
    'extensions.ignoreRecommendations': true,
    'update.mode': 'none',
    'files.autoSave': 'off',
    'git.openRepositoryInParentFolders': 'never',
    // Deterministic typing and hovering: what typeInEditor types is what lands in the file.
    'editor.autoClosingBrackets': 'never',
    'editor.autoClosingQuotes': 'never',
    'editor.autoClosingOvertype': 'never',
    'editor.autoSurround': 'never',
    'editor.autoIndent': 'none',
    'editor.formatOnType': false,
    'editor.acceptSuggestionOnEnter': 'off',
    'editor.cursorBlinking': 'solid',
    'editor.minimap.enabled': false,
    'editor.hover.delay': 300,
    'editor.hover.sticky': true,
    // The page's title names the active editor's path in the workspace: openFile checks it opened the file it picked.
    'window.title': '${activeEditorMedium}',
  };
}

export interface StartOptions {
  /** Folder the workbench opens (created if missing). */
  folder: string;
  /** Extensions dir (default: a fresh temp dir, removed by stop()). */
  extensionsDir?: string;
  /** User data dir (default: a fresh temp dir, removed by stop()). */
  userDataDir?: string;
  /** A .vsix to install with `--install-extension` before the server starts. */
  vsix?: string;
  /** Put into the workbench URL's payload (in-host tests); see workbenchUrl(). */
  extensionDevelopmentPath?: string | string[];
  extensionTestsPath?: string;
  /** Pass `--disable-workspace-trust` (no trust dialog; the folder counts as trusted). */
  disableWorkspaceTrust?: boolean;
  /** Merged over defaultSettings() into <userDataDir>/User/settings.json. */
  settings?: Record<string, unknown>;
  /**
   * The remote machine's settings (<userDataDir>/Machine/settings.json: the "Remote" tab of the
   * Settings editor). The workbench is a remote window, so settings with `machine` or
   * `machine-overridable` scope are ignored in User settings (VS Code filters them out once the
   * extension's schema is registered: a race) and must be set here.
   */
  machineSettings?: Record<string, unknown>;
  /** Where code-server's output and (at stop()) VS Code's own logs are kept. Default: test-output/logs/<name>. */
  logDir?: string;
  /** Readiness timeout (default 90 s). */
  timeoutMs?: number;
  /** Extra environment for code-server and its extension host. */
  env?: NodeJS.ProcessEnv;
}

export interface CodeServer {
  /** Workbench URL for `folder` (with the payload when dev/test paths were given). */
  url: string;
  port: number;
  /** `http://127.0.0.1:<port>` */
  baseUrl: string;
  folder: string;
  userDataDir: string;
  extensionsDir: string;
  /** code-server.log (stdout+stderr) lives here; at stop() VS Code's logs are copied to <logDir>/vscode. */
  logDir: string;
  pid: number;
  /** Builds another workbench URL on this server. */
  workbenchUrl(opts?: WorkbenchUrlOptions): string;
  /** Text of the extension host logs written so far (exthost*.log + output channels), for diagnostics. */
  extensionHostLog(): string;
  /** Kills the process group, copies VS Code's logs to logDir, removes temp dirs it created. Idempotent. */
  stop(): Promise<void>;
}

const running = new Set<number>();
process.on('exit', () => {
  for (const pid of running) {
    try {
      process.kill(-pid, 'SIGKILL');
    } catch {
      /* already gone */
    }
  }
});

function cleanEnv(extra?: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env };
  for (const k of Object.keys(env)) {
    // PORT overrides --bind-addr; VSCODE_IPC_HOOK_CLI turns code-server into a client of another
    // instance; PASSWORD etc. would change auth; ELECTRON_RUN_AS_NODE and NODE_OPTIONS leak from tools.
    if (/^(PORT|PASSWORD|HASHED_PASSWORD|GITHUB_TOKEN|NODE_OPTIONS|ELECTRON_RUN_AS_NODE)$/.test(k)) delete env[k];
    if (/^(VSCODE_|CODE_SERVER_|CS_)/.test(k)) delete env[k];
  }
  return { ...env, ...extra };
}

function xdgEnv(userDataDir: string): NodeJS.ProcessEnv {
  return { XDG_CONFIG_HOME: path.join(userDataDir, 'xdg-config'), XDG_DATA_HOME: path.join(userDataDir, 'xdg-data') };
}

function tmpDir(prefix: string): string {
  return fs.mkdtempSync(path.join(os.tmpdir(), `hermes-lens-e2e-${prefix}-`));
}

/** Installs a .vsix into extensionsDir with code-server's own `--install-extension`. */
export function installExtension(vsix: string, dirs: { extensionsDir: string; userDataDir: string }): string {
  const bin = ensureCodeServer();
  if (!fs.existsSync(vsix)) throw new Error(`VSIX not found: ${vsix}`);
  const r = spawnSync(
    bin,
    [
      '--user-data-dir', dirs.userDataDir,
      '--extensions-dir', dirs.extensionsDir,
      '--config', path.join(dirs.userDataDir, 'code-server-config.yaml'),
      '--install-extension', path.resolve(vsix),
      '--force',
    ],
    {
      encoding: 'utf8',
      env: cleanEnv(xdgEnv(dirs.userDataDir)),
      timeout: 120_000,
    },
  );
  const out = `${r.stdout ?? ''}${r.stderr ?? ''}`;
  if (r.status !== 0 || !/successfully installed/i.test(out)) {
    throw new Error(`--install-extension ${vsix} failed (exit ${r.status}):\n${out}`);
  }
  return out;
}

function httpGet(url: string, timeoutMs = 5000): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = http.get(url, { timeout: timeoutMs }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (c: string) => (body += c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
    });
    req.on('timeout', () => req.destroy(new Error('timeout')));
    req.on('error', reject);
  });
}

const delay = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * Polls `predicate` (every `intervalMs`) until it returns a value other than undefined/false, or
 * throws after `timeoutMs` with `what` in the message. `abort` may return an error to stop early.
 */
export async function pollUntil<T>(
  what: string,
  predicate: () => Promise<T | undefined | false> | T | undefined | false,
  opts: { timeoutMs?: number; intervalMs?: number; abort?: () => Error | undefined } = {},
): Promise<T> {
  const deadline = Date.now() + (opts.timeoutMs ?? 30_000);
  let lastErr: unknown;
  for (;;) {
    const stop = opts.abort?.();
    if (stop) throw stop;
    try {
      const v = await predicate();
      if (v !== undefined && v !== false) return v as T;
    } catch (e) {
      lastErr = e;
    }
    if (Date.now() > deadline) {
      throw new Error(`timed out after ${opts.timeoutMs ?? 30_000} ms waiting for ${what}${lastErr ? ` (last error: ${lastErr})` : ''}`);
    }
    await delay(opts.intervalMs ?? 200);
  }
}

/** Waits for a file to exist and hold complete JSON (e.g. in-host results); returns the parsed value. */
export async function waitForJsonFile<T = unknown>(
  file: string,
  opts: { timeoutMs?: number; abort?: () => Error | undefined } = {},
): Promise<T> {
  return pollUntil(
    `JSON file ${file}`,
    () => {
      if (!fs.existsSync(file)) return undefined;
      try {
        return { v: JSON.parse(fs.readFileSync(file, 'utf8')) as T };
      } catch {
        return undefined; // still being written
      }
    },
    { timeoutMs: opts.timeoutMs ?? 120_000, intervalMs: 250, abort: opts.abort },
  ).then((x) => x.v);
}

function tail(file: string, lines = 40): string {
  try {
    return fs.readFileSync(file, 'utf8').split('\n').slice(-lines).join('\n');
  } catch {
    return '';
  }
}

function listFiles(dir: string, re: RegExp, out: string[] = []): string[] {
  if (!fs.existsSync(dir)) return out;
  for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) listFiles(p, re, out);
    else if (re.test(p)) out.push(p);
  }
  return out.sort();
}

let runCounter = 0;

/** Starts code-server on a free 127.0.0.1 port and resolves once it serves the workbench page. */
export async function startCodeServer(opts: StartOptions): Promise<CodeServer> {
  const bin = ensureCodeServer();
  const folder = path.resolve(opts.folder);
  fs.mkdirSync(folder, { recursive: true });
  const created: string[] = [];
  const userDataDir = opts.userDataDir ? path.resolve(opts.userDataDir) : (created.push(tmpDir('user')), created.at(-1)!);
  const extensionsDir = opts.extensionsDir ? path.resolve(opts.extensionsDir) : (created.push(tmpDir('ext')), created.at(-1)!);
  fs.mkdirSync(userDataDir, { recursive: true });
  fs.mkdirSync(extensionsDir, { recursive: true });
  const stamp = `${new Date().toISOString().replace(/[:.]/g, '-')}-${process.pid}-${++runCounter}`;
  const logDir = path.resolve(opts.logDir ?? path.join(testOutputDir(), 'logs', `code-server-${stamp}`));
  fs.mkdirSync(logDir, { recursive: true });

  const trust = !opts.disableWorkspaceTrust;
  const settings = { ...defaultSettings({ trust }), ...opts.settings };
  fs.mkdirSync(path.join(userDataDir, 'User'), { recursive: true });
  fs.writeFileSync(path.join(userDataDir, 'User', 'settings.json'), JSON.stringify(settings, null, 2));
  if (opts.machineSettings) {
    fs.mkdirSync(path.join(userDataDir, 'Machine'), { recursive: true });
    fs.writeFileSync(path.join(userDataDir, 'Machine', 'settings.json'), JSON.stringify(opts.machineSettings, null, 2));
  }
  // Our own config file, so nothing is read from or written to ~/.config/code-server.
  const config = path.join(userDataDir, 'code-server-config.yaml');
  fs.writeFileSync(config, 'auth: none\ncert: false\n');

  if (opts.vsix) installExtension(opts.vsix, { extensionsDir, userDataDir });

  const logFile = path.join(logDir, 'code-server.log');
  let lastError: Error | undefined;
  for (let attempt = 1; attempt <= 3; attempt++) {
    const port = await freePort();
    const args = [
      '--bind-addr', `${HOST}:${port}`,
      '--auth', 'none',
      '--disable-telemetry',
      '--disable-update-check',
      '--disable-getting-started-override',
      '--ignore-last-opened',
      '--user-data-dir', userDataDir,
      '--extensions-dir', extensionsDir,
      '--config', config,
      ...(opts.disableWorkspaceTrust ? ['--disable-workspace-trust'] : []),
      folder,
    ];
    const out = fs.openSync(logFile, 'a');
    fs.writeSync(out, `\n$ ${bin} ${args.join(' ')}\n`);
    const child: ChildProcess = spawn(bin, args, {
      cwd: folder,
      detached: true, // own process group, so stop() reaches the extension host and pty host too
      stdio: ['ignore', out, out],
      // code-server keeps a heartbeat file, coder-logs and a default config under the XDG dirs
      // whatever --user-data-dir says; keep them inside the run's own dirs, out of $HOME.
      env: cleanEnv({ ...xdgEnv(userDataDir), ...opts.env }),
    });
    fs.closeSync(out);
    const pid = child.pid!;
    running.add(pid);
    let exited: string | undefined;
    child.on('exit', (code, signal) => {
      exited = `code-server exited early (code ${code}, signal ${signal})`;
      running.delete(pid);
    });

    const baseUrl = `http://${HOST}:${port}`;
    const url = workbenchUrl(port, {
      folder,
      extensionDevelopmentPath: opts.extensionDevelopmentPath,
      extensionTestsPath: opts.extensionTestsPath,
    });
    try {
      await pollUntil(
        `code-server on ${baseUrl}`,
        async () => {
          const health = await httpGet(`${baseUrl}/healthz`);
          if (health.status !== 200) return false;
          const page = await httpGet(url);
          return page.status === 200 && page.body.includes('vscode-workbench-web-configuration');
        },
        {
          timeoutMs: opts.timeoutMs ?? 90_000,
          intervalMs: 250,
          abort: () => (exited ? new Error(`${exited}; last lines of ${logFile}:\n${tail(logFile)}`) : undefined),
        },
      );
    } catch (e) {
      lastError = e as Error;
      await killGroup(pid, () => exited !== undefined);
      if (exited && /EADDRINUSE/.test(tail(logFile))) continue; // lost the port race: try another
      throw lastError;
    }

    let stopped = false;
    const server: CodeServer = {
      url,
      port,
      baseUrl,
      folder,
      userDataDir,
      extensionsDir,
      logDir,
      pid,
      workbenchUrl: (o = {}) => workbenchUrl(port, { folder, ...o }),
      extensionHostLog: () =>
        listFiles(path.join(userDataDir, 'logs'), /exthost\d*[/\\].*\.log$/)
          .map((f) => `==> ${path.relative(userDataDir, f)} <==\n${fs.readFileSync(f, 'utf8')}`)
          .join('\n'),
      stop: async () => {
        if (stopped) return;
        stopped = true;
        await killGroup(pid, () => exited !== undefined);
        running.delete(pid);
        const vsLogs = path.join(userDataDir, 'logs');
        if (fs.existsSync(vsLogs)) fs.cpSync(vsLogs, path.join(logDir, 'vscode'), { recursive: true });
        if (!process.env.HERMES_LENS_E2E_KEEP) {
          for (const d of created) fs.rmSync(d, { recursive: true, force: true });
        }
      },
    };
    return server;
  }
  throw lastError ?? new Error('code-server did not start');
}

function groupAlive(pid: number): boolean {
  try {
    process.kill(-pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** SIGTERM the process group, wait up to 5 s, then SIGKILL; resolves when the group is gone. */
async function killGroup(pid: number, leaderExited: () => boolean): Promise<void> {
  const signal = (s: NodeJS.Signals) => {
    try {
      process.kill(-pid, s);
    } catch {
      /* gone */
    }
  };
  if (!groupAlive(pid) && leaderExited()) return;
  signal('SIGTERM');
  try {
    await pollUntil('code-server to exit', () => !groupAlive(pid), { timeoutMs: 5000, intervalMs: 100 });
  } catch {
    signal('SIGKILL');
    await pollUntil('code-server to die', () => !groupAlive(pid), { timeoutMs: 5000, intervalMs: 100 }).catch(() => {});
  }
}
