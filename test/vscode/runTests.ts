// `npm run test:vscode`: runs the in-host suite (test/vscode/suite) in every VS Code host this
// machine has, and fails (exit 1, failures printed) when a test failed or none ran.
//
//   1. code-server 4.100.3 (VS Code 1.100.3's extension host on Node 20), through the workbench
//      `payload` URL (extensionDevelopmentPath + extensionTestsPath as vscode-remote:// URIs) and
//      a headless Chromium that connects: code-server starts an extension host only for a
//      connected workbench (the tiers: docs/TESTING.md). Always,
//      unless HERMES_LENS_VSCODE_HOSTS excludes it.
//   2. Desktop VS Code through @vscode/test-electron when one is available: $VSCODE_EXECUTABLE, or
//      a download where Microsoft's update server answers (these machines cannot reach it: the run
//      says so and skips). HERMES_LENS_VSCODE_DOWNLOAD=0 never downloads; =1 skips the probe.
//
// Each host gets a fresh generated Hermes home; user settings point `hermesLens.home` at it with
// `hermesLens.confirmRefresh: false` (VS Code refuses modal dialogs in test mode). The suite writes
// its results to a JSON file this runner waits for.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import * as fs from 'node:fs';
import * as https from 'node:https';
import * as os from 'node:os';
import * as path from 'node:path';
import { openWorkbench, type BrowserSession } from '../e2e/support/browser';
import { e2eCacheDir, pollUntil, REPO_ROOT, startCodeServer, testOutputDir, waitForJsonFile, type CodeServer } from '../e2e/support/codeServer';
import { WITH_REFRESH } from '../../server/demo/hermesInstall';
import { createDemoHome, type DemoHome } from '../e2e/support/hermesHome';
import type { InHostResults } from './suite/index';

const TESTS_PATH = path.join(__dirname, 'suite', 'index.js');
/** The extension under test (its folder, with package.json and dist/): the repository unless overridden. */
const EXTENSION_PATH = path.resolve(process.env.HERMES_LENS_EXTENSION_PATH || REPO_ROOT);
const RESULTS_TIMEOUT_MS = Number(process.env.HERMES_LENS_VSCODE_TIMEOUT || 300_000);

interface HostRun {
  host: string;
  skipped?: string;
  results?: InHostResults;
  error?: string;
  ms: number;
}

function log(message: string): void {
  console.log(`[test:vscode] ${message}`);
}

function settingsFor(home: DemoHome, extra: Record<string, unknown> = {}): Record<string, unknown> {
  return { 'hermesLens.home': home.root, 'hermesLens.confirmRefresh': false, 'hermesLens.trace.server': 'messages', ...extra };
}

function suiteEnv(home: DemoHome, resultsFile: string): Record<string, string> {
  return {
    HERMES_LENS_VSCODE_RESULTS: resultsFile,
    HERMES_LENS_TEST_MANIFEST: path.join(home.manifest.dir, 'demo-manifest.json'),
    HERMES_LENS_NODE: process.execPath,
  };
}

function wanted(host: 'code-server' | 'electron'): boolean {
  const hosts = (process.env.HERMES_LENS_VSCODE_HOSTS || 'code-server,electron').split(',').map((h) => h.trim());
  return hosts.includes(host);
}

// ---------------------------------------------------------------------------------------------
// code-server
// ---------------------------------------------------------------------------------------------

async function runInCodeServer(): Promise<HostRun> {
  const t0 = Date.now();
  const home = createDemoHome('hl-inhost-cs', WITH_REFRESH);
  const resultsFile = path.join(home.dir, 'results.json');
  let server: CodeServer | undefined;
  let browser: BrowserSession | undefined;
  try {
    server = await startCodeServer({
      folder: home.root,
      extensionDevelopmentPath: EXTENSION_PATH,
      extensionTestsPath: TESTS_PATH,
      disableWorkspaceTrust: true,
      // A remote window: machine-overridable settings (hermesLens.home) go to the machine's settings.
      machineSettings: settingsFor(home),
      settings: settingsFor(home),
      env: suiteEnv(home, resultsFile),
    });
    log(`code-server on ${server.baseUrl} (logs: ${path.relative(process.cwd(), server.logDir)})`);
    // The extension host starts when a browser connects to the workbench.
    browser = await openWorkbench(server.url);
    const s = server;
    const results = await waitForJsonFile<InHostResults>(resultsFile, {
      timeoutMs: RESULTS_TIMEOUT_MS,
      abort: () => (isAlive(s.pid) ? undefined : new Error('code-server exited before the suite wrote its results')),
    });
    fs.copyFileSync(resultsFile, path.join(resultDir(), 'code-server.json'));
    return { host: 'code-server', results, ms: Date.now() - t0 };
  } catch (e) {
    const tail = server ? server.extensionHostLog().split('\n').slice(-40).join('\n') : '';
    return { host: 'code-server', error: `${(e as Error).message}${tail ? `\nextension host log (tail):\n${tail}` : ''}`, ms: Date.now() - t0 };
  } finally {
    await browser?.close();
    await server?.stop();
    home.dispose();
  }
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

function resultDir(): string {
  const dir = path.join(testOutputDir(), 'vscode');
  fs.mkdirSync(dir, { recursive: true });
  return dir;
}

// ---------------------------------------------------------------------------------------------
// Desktop VS Code (@vscode/test-electron)
// ---------------------------------------------------------------------------------------------

/** Whether Microsoft's update server answers (test-electron downloads VS Code from it). */
function updateServerReachable(timeoutMs = 5000): Promise<boolean> {
  return new Promise((resolve) => {
    const req = https.get('https://update.code.visualstudio.com/api/releases/stable', { timeout: timeoutMs }, (res) => {
      res.resume();
      resolve((res.statusCode ?? 0) >= 200 && (res.statusCode ?? 0) < 400);
    });
    req.on('timeout', () => req.destroy(new Error('timeout')));
    req.on('error', () => resolve(false));
  });
}

type Desktop = { executable: string } | { download: string } | { skip: string };

async function findDesktop(): Promise<Desktop> {
  const exe = process.env.VSCODE_EXECUTABLE;
  if (exe) {
    if (!fs.existsSync(exe)) throw new Error(`VSCODE_EXECUTABLE=${exe} does not exist`);
    return { executable: exe };
  }
  const download = process.env.HERMES_LENS_VSCODE_DOWNLOAD;
  if (download === '0') return { skip: 'no VSCODE_EXECUTABLE and downloads are off (HERMES_LENS_VSCODE_DOWNLOAD=0)' };
  const version = process.env.HERMES_LENS_VSCODE_VERSION || 'stable';
  if (download === '1' || (await updateServerReachable())) return { download: version };
  return { skip: 'no VSCODE_EXECUTABLE, and update.code.visualstudio.com is out of reach, so no VS Code can be downloaded' };
}

/** Electron needs a display on Linux: the one we have, or an Xvfb we start (and stop afterwards). */
async function ensureDisplay(): Promise<{ env: Record<string, string>; stop(): Promise<void> } | { skip: string }> {
  if (process.platform !== 'linux' || process.env.DISPLAY) return { env: {}, stop: async () => {} };
  if (spawnSync('sh', ['-c', 'command -v Xvfb'], { encoding: 'utf8' }).status !== 0) {
    return { skip: 'no DISPLAY and no Xvfb to provide one (apt-get install xvfb)' };
  }
  let n = 90;
  while (fs.existsSync(`/tmp/.X11-unix/X${n}`) || fs.existsSync(`/tmp/.X${n}-lock`)) n++;
  const xvfb: ChildProcess = spawn('Xvfb', [`:${n}`, '-screen', '0', '1280x1024x24', '-nolisten', 'tcp'], { stdio: 'ignore', detached: true });
  const exited = new Promise<void>((resolve) => xvfb.once('exit', () => resolve()));
  const stop = async () => {
    try {
      process.kill(-xvfb.pid!, 'SIGTERM');
    } catch {
      /* gone */
    }
    await Promise.race([exited, new Promise((r) => setTimeout(r, 5000).unref())]);
  };
  try {
    // Ready when its socket exists (a condition, not a sleep).
    await pollUntil(`Xvfb :${n}`, () => fs.existsSync(`/tmp/.X11-unix/X${n}`), { timeoutMs: 15_000, intervalMs: 50, abort: () => (xvfb.exitCode !== null ? new Error(`Xvfb exited with ${xvfb.exitCode}`) : undefined) });
  } catch (e) {
    await stop();
    return { skip: `could not start Xvfb: ${(e as Error).message}` };
  }
  return { env: { DISPLAY: `:${n}` }, stop };
}

async function runInElectron(desktop: { executable: string } | { download: string }): Promise<HostRun> {
  const t0 = Date.now();
  const display = await ensureDisplay();
  if ('skip' in display) {
    // Asked for by name (VSCODE_EXECUTABLE): not running it is a failure, not a skip.
    return 'executable' in desktop ? { host: 'electron', error: `cannot start ${desktop.executable}: ${display.skip}`, ms: 0 } : { host: 'electron', skipped: display.skip, ms: 0 };
  }
  const home = createDemoHome('hl-inhost-electron', WITH_REFRESH);
  const resultsFile = path.join(home.dir, 'results.json');
  const userDataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'hl-inhost-electron-user-'));
  const extensionsDir = fs.mkdtempSync(path.join(os.tmpdir(), 'hl-inhost-electron-ext-'));
  fs.mkdirSync(path.join(userDataDir, 'User'), { recursive: true });
  // The server runs on this Node (the bundled better-sqlite3 is built for it; Electron's is another ABI).
  fs.writeFileSync(
    path.join(userDataDir, 'User', 'settings.json'),
    JSON.stringify(settingsFor(home, { 'hermesLens.server.runtime': process.execPath, 'security.workspace.trust.enabled': false }), null, 2),
  );
  try {
    const { runTests } = await import('@vscode/test-electron');
    const code = await runTests({
      ...('executable' in desktop ? { vscodeExecutablePath: desktop.executable } : { version: desktop.download }),
      cachePath: path.join(e2eCacheDir(), 'vscode-test'),
      extensionDevelopmentPath: EXTENSION_PATH,
      extensionTestsPath: TESTS_PATH,
      extensionTestsEnv: { ...suiteEnv(home, resultsFile), ...display.env },
      launchArgs: [
        home.root,
        '--user-data-dir', userDataDir,
        '--extensions-dir', extensionsDir,
        '--disable-workspace-trust',
        '--disable-extensions',
        '--skip-welcome',
        '--skip-release-notes',
        '--disable-gpu',
        ...(process.getuid?.() === 0 ? ['--no-sandbox'] : []),
      ],
    }).catch((e: Error & { code?: number }) => (typeof e.code === 'number' ? e.code : Promise.reject(e)));
    if (!fs.existsSync(resultsFile)) return { host: 'electron', error: `VS Code exited with ${code} and wrote no results`, ms: Date.now() - t0 };
    const results = JSON.parse(fs.readFileSync(resultsFile, 'utf8')) as InHostResults;
    fs.copyFileSync(resultsFile, path.join(resultDir(), 'electron.json'));
    return { host: 'electron', results, ms: Date.now() - t0 };
  } catch (e) {
    return { host: 'electron', error: String((e as Error)?.stack ?? e), ms: Date.now() - t0 };
  } finally {
    await display.stop();
    home.dispose();
    if (!process.env.HERMES_LENS_E2E_KEEP) {
      fs.rmSync(userDataDir, { recursive: true, force: true });
      fs.rmSync(extensionsDir, { recursive: true, force: true });
    }
  }
}

// ---------------------------------------------------------------------------------------------

function report(run: HostRun): boolean {
  if (run.skipped) {
    log(`${run.host}: skipped (${run.skipped})`);
    return true;
  }
  if (run.error || !run.results) {
    log(`${run.host}: FAILED to run the suite: ${run.error}`);
    return false;
  }
  const r = run.results;
  log(`${run.host}: ${r.host}, VS Code ${r.vscodeVersion}, extension host ${r.node}`);
  for (const t of r.tests) {
    const mark = t.state === 'passed' ? '✔' : t.state === 'failed' ? '✗' : '-';
    console.log(`    ${mark} ${t.fullTitle}${t.state === 'passed' ? ` (${t.durationMs} ms)` : ''}`);
    if (t.error) console.log(t.error.split('\n').map((l) => `        ${l}`).join('\n'));
  }
  if (r.fatal) console.log(`    mocha could not run: ${r.fatal}`);
  log(`${run.host}: ${r.passed} passed, ${r.failed} failed, ${r.pending} pending (${(run.ms / 1000).toFixed(1)} s)`);
  if (r.passed === 0) log(`${run.host}: FAILED: no test ran`);
  return !r.fatal && r.failed === 0 && r.passed > 0;
}

async function main(): Promise<number> {
  if (!fs.existsSync(path.join(EXTENSION_PATH, 'dist', 'extension.js'))) throw new Error(`${EXTENSION_PATH}/dist/extension.js missing: run \`npm run build\` first`);
  if (!fs.existsSync(TESTS_PATH)) throw new Error(`${TESTS_PATH} missing: run \`npm run compile\` first`);
  const runs: HostRun[] = [];
  if (wanted('code-server')) runs.push(await runInCodeServer());
  if (wanted('electron')) {
    const desktop = await findDesktop();
    runs.push('skip' in desktop ? { host: 'electron', skipped: desktop.skip, ms: 0 } : await runInElectron(desktop));
  }
  let ok = true;
  for (const run of runs) ok = report(run) && ok;
  const ran = runs.filter((r) => !r.skipped);
  if (ran.length === 0) {
    log('FAILED: no host ran the suite');
    return 1;
  }
  log(ok ? `OK (${ran.map((r) => r.host).join(', ')})` : 'FAILED');
  // The closing line CI reads, as scripts/summary-reporter.cjs prints it for the other tiers.
  const sum = (k: 'passed' | 'failed' | 'pending') => ran.reduce((n, r) => n + (r.results?.[k] ?? 0), 0);
  const broken = ran.filter((r) => !r.results).length;
  console.log(`${sum('passed')} passed, ${sum('failed') + broken} failed${sum('pending') ? `, ${sum('pending')} skipped` : ''}`);
  return ok ? 0 : 1;
}

main().then(
  (code) => process.exit(code),
  (e) => {
    console.error(`[test:vscode] ${(e as Error)?.stack ?? e}`);
    process.exit(1);
  },
);
