// Running hermes-lens from tests: in-process through runCli with a fixed clock, or as the real
// executable users run.
import { spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { runCli } from '../../../server/cli/main';
import { runCliNow } from '../../support/cliNow';
import type { FakeClock } from '../../support/fakeClock';
import type { CommandIO } from '../../../server/cli/io';

/** The clock every CLI test runs at (epoch seconds). */
export const NOW = 1_795_000_000;
const REPO = path.resolve(__dirname, '..', '..', '..', '..');

export interface Run {
  readonly code: number;
  readonly stdout: string;
  readonly stderr: string;
}

/** One command line, in-process, at NOW. */
export function cli(argv: string[], env: NodeJS.ProcessEnv = {}): Run {
  const out: string[] = [];
  const err: string[] = [];
  const io: CommandIO = { out: (t) => void out.push(t), err: (t) => void err.push(t), env, now: () => NOW };
  const code = runCliNow(argv, io);
  return { code, stdout: out.join('\n'), stderr: err.join('\n') };
}

/** The CLI as users run it: the esbuild bundle when built, else the compiled entry point. */
export function cliBinary(): string {
  const bundle = path.join(REPO, 'dist', 'cli.js');
  return fs.existsSync(bundle) ? bundle : path.join(REPO, 'out', 'server', 'cli', 'main.js');
}

/** The executable in a child process (HERMES_HOME unset, so only --home counts), with `extraEnv` added. */
export function runBinary(argv: string[], extraEnv: NodeJS.ProcessEnv = {}): Promise<Run> {
  return new Promise((resolve, reject) => {
    const env = { ...process.env, ...extraEnv };
    delete env.HERMES_HOME;
    const child = spawn(process.execPath, [cliBinary(), ...argv], { stdio: ['ignore', 'pipe', 'pipe'], env });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (c: string) => (stdout += c));
    child.stderr.setEncoding('utf8').on('data', (c: string) => (stderr += c));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code: code ?? -1, stdout, stderr }));
  });
}

export interface WaitingRun {
  /** The run's outcome, once the command is done. */
  readonly done: Promise<Run>;
  /** What Ctrl-C does. */
  interrupt(): void;
  /** stderr as written so far (a terminal's redrawn line included, with its control characters). */
  stderr(): string;
}

/** A command that waits (`refresh --when-free`), in-process, on a clock the test moves. */
export function cliWaiting(argv: string[], clock: FakeClock, options: { env?: NodeJS.ProcessEnv; errTerminal?: boolean } = {}): WaitingRun {
  const out: string[] = [];
  let err = '';
  let interrupt: (() => void) | undefined;
  const io: CommandIO = {
    out: (t) => void out.push(t),
    err: (t) => void (err += `${t}\n`),
    env: options.env ?? {},
    now: () => clock.now(),
    timers: clock,
    errTerminal: options.errTerminal ?? false,
    errInPlace: (t) => void (err += t),
    onInterrupt: (stop) => {
      interrupt = stop;
      return () => void (interrupt = undefined);
    },
  };
  const done = Promise.resolve(runCli(argv, io)).then((code) => ({ code, stdout: out.join('\n'), stderr: err }));
  return { done, interrupt: () => interrupt?.(), stderr: () => err };
}
