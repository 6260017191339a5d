// The in-host test runner: the extension host (desktop VS Code through @vscode/test-electron, or
// code-server through the workbench `payload` URL) calls run() with the real `vscode` API. It runs
// the mocha suite next to this file, logs each result to an output channel (kept in the extension
// host logs), writes a results JSON file the driving runner waits for ($HERMES_LENS_VSCODE_RESULTS),
// and rejects when a test failed or none ran (test-electron turns that into a non-zero exit).
import * as fs from 'node:fs';
import * as path from 'node:path';
import Mocha from 'mocha';
import * as vscode from 'vscode';

export interface InHostTestResult {
  title: string;
  fullTitle: string;
  state: 'passed' | 'failed' | 'pending';
  durationMs: number;
  error?: string;
}

export interface InHostResults {
  host: string;
  vscodeVersion: string;
  node: string;
  startedAt: string;
  durationMs: number;
  passed: number;
  failed: number;
  pending: number;
  tests: InHostTestResult[];
  /** Set when mocha itself could not run (load error of a test file …). */
  fatal?: string;
}

function writeResults(file: string | undefined, results: InHostResults): void {
  if (!file) return;
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(`${file}.tmp`, JSON.stringify(results, null, 2));
  fs.renameSync(`${file}.tmp`, file); // the runner polls for the file: it only ever sees it whole
}

export async function run(): Promise<void> {
  const started = Date.now();
  const log = vscode.window.createOutputChannel('Hermes Lens In-Host Tests', { log: true });
  const results: InHostResults = {
    host: `${vscode.env.appName} (${vscode.env.appHost}, ${vscode.env.remoteName ?? 'local'})`,
    vscodeVersion: vscode.version,
    node: process.version,
    startedAt: new Date(started).toISOString(),
    durationMs: 0,
    passed: 0,
    failed: 0,
    pending: 0,
    tests: [],
  };
  const file = process.env.HERMES_LENS_VSCODE_RESULTS;
  log.info(`In-host suite on ${results.host}, VS Code ${vscode.version}, ${process.version}; results → ${file ?? '(none)'}`);

  const mocha = new Mocha({ ui: 'bdd', color: false, timeout: 60_000, reporter: 'dot' });
  for (const f of fs.readdirSync(__dirname).filter((n) => n.endsWith('.test.js')).sort()) mocha.addFile(path.join(__dirname, f));
  try {
    await new Promise<void>((resolve) => {
      const runner = mocha.run(() => resolve());
      const record = (test: Mocha.Test, state: InHostTestResult['state'], err?: Error) => {
        const entry: InHostTestResult = { title: test.title, fullTitle: test.fullTitle(), state, durationMs: test.duration ?? 0 };
        if (err) entry.error = String(err.stack ?? err.message ?? err);
        results.tests.push(entry);
        results[state]++;
        if (state === 'failed') log.error(`✗ ${entry.fullTitle}\n${entry.error}`);
        else log.info(`${state === 'passed' ? '✓' : '-'} ${entry.fullTitle} (${entry.durationMs} ms)`);
      };
      runner.on('pass', (t) => record(t, 'passed'));
      runner.on('fail', (t, err) => record(t as Mocha.Test, 'failed', err));
      runner.on('pending', (t) => record(t, 'pending'));
    });
  } catch (e) {
    results.fatal = String((e as Error)?.stack ?? e);
    log.error(`mocha could not run: ${results.fatal}`);
  }
  results.durationMs = Date.now() - started;
  log.info(`${results.passed} passed, ${results.failed} failed, ${results.pending} pending in ${results.durationMs} ms`);
  writeResults(file, results);
  if (results.fatal) throw new Error(results.fatal);
  if (results.failed > 0) throw new Error(`${results.failed} in-host test(s) failed`);
  if (results.passed === 0) throw new Error('no in-host test ran');
}
