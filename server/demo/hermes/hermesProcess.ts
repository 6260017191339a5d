// A simulated Hermes in a process of its own, for tests of what the lens does while Hermes holds
// its write lock (a refresh request waits, retries, then fails cleanly with nothing written) and
// of what Hermes' lock, its open connection or its death leave in the files. It must be another
// process: a test that runs the lens in its own thread could not let go of a lock it held itself.
//
//   node hermesProcess.js <state.db>
//
// The child opens the database as Hermes' writer (SimulatedHermes: it reads once, so a WAL
// database has its -wal and -shm while it runs), says `ready`, and answers lines on stdin:
//   lock [{"sql": …, "releaseAfterMs": …}]  takes the write lock (SimulatedHermes.hold), runs `sql`
//                                            under it (a Hermes write in progress) → `locked`;
//                                            with releaseAfterMs it commits by itself after that
//                                            long and says `released`
//   unlock                                   commits what it holds → `unlocked`
// and answers `error <message>` when a command fails. When stdin ends (the test let go, or went
// away) it commits what it holds and exits: Hermes' lock never outlives the test that took it.
import { spawn, type ChildProcess } from 'node:child_process';
import path = require('node:path');
import * as readline from 'node:readline';
import { SimulatedHermes } from './simulatedHermes';

export interface LockOptions {
  /** SQL run under the lock, committed when it lets go (a Hermes write in progress). */
  readonly sql?: string;
  /** Commit by itself after this long (the test's own thread may be busy waiting for the lock). */
  readonly releaseAfterMs?: number;
}

export interface HermesProcessOptions {
  /** Run as another user (the files it creates are then that user's). */
  readonly as?: { readonly uid: number; readonly gid: number };
  /** How long to wait for it to open the database. */
  readonly startTimeoutMs?: number;
}

export class HermesProcess {
  /** Settles when the process has exited: resolves on a clean exit or a kill(), rejects otherwise. */
  readonly exited: Promise<void>;
  /** Resolves when a lock taken with releaseAfterMs was let go by the process itself. */
  readonly released: Promise<void>;
  private readonly replies: Array<{ resolve: (line: string) => void; reject: (error: Error) => void }> = [];
  private stderr = '';
  private killed = false;
  private onReady: ((error?: Error) => void) | undefined;
  private onReleased: () => void = () => undefined;

  private constructor(private readonly child: ChildProcess) {
    this.released = new Promise((resolve) => (this.onReleased = resolve));
    child.stderr!.setEncoding('utf8').on('data', (chunk: string) => (this.stderr += chunk));
    // It may have exited already when stop() ends its input: that is fine.
    child.stdin!.on('error', () => undefined);
    readline.createInterface({ input: child.stdout! }).on('line', (line) => this.receive(line));
    this.exited = new Promise<void>((resolve, reject) => {
      child.on('error', reject);
      child.on('exit', (code, signal) => {
        const error = new Error(`Hermes process exited with ${code ?? signal}: ${this.stderr.trim()}`);
        for (const reply of this.replies.splice(0)) reply.reject(error);
        this.onReady?.(error);
        if (code === 0 || (this.killed && signal === 'SIGKILL')) resolve();
        else reject(error);
      });
    });
    // Nobody may be awaiting `exited` yet; a failure also reaches the pending start or command.
    this.exited.catch(() => undefined);
  }

  /** Starts the process on `dbFile`; resolves once it has the database open. */
  static start(dbFile: string, options: HermesProcessOptions = {}): Promise<HermesProcess> {
    const child = spawn(process.execPath, [__filename, dbFile], { stdio: ['pipe', 'pipe', 'pipe'], ...(options.as ?? {}) });
    const hermes = new HermesProcess(child);
    const timeoutMs = options.startTimeoutMs ?? 10_000;
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        child.kill('SIGKILL');
        reject(new Error(`Hermes process did not open ${dbFile} within ${timeoutMs} ms: ${hermes.stderr.trim()}`));
      }, timeoutMs);
      hermes.onReady = (error) => {
        clearTimeout(timer);
        hermes.onReady = undefined;
        if (error) reject(error);
        else resolve(hermes);
      };
    });
  }

  get pid(): number {
    return this.child.pid ?? -1;
  }

  async lock(options: LockOptions = {}): Promise<void> {
    const given = options.sql !== undefined || options.releaseAfterMs !== undefined;
    await this.command(given ? `lock ${JSON.stringify(options)}` : 'lock', 'locked');
  }

  async unlock(): Promise<void> {
    await this.command('unlock', 'unlocked');
  }

  /** Commits `sql` as one write and keeps the connection open, as a running Hermes does. */
  async write(sql: string): Promise<void> {
    await this.lock({ sql });
    await this.unlock();
  }

  /** Ends its input: it commits what it holds and exits. */
  stop(): Promise<void> {
    if (this.child.exitCode === null && this.child.signalCode === null && this.child.stdin!.writable) this.child.stdin!.end();
    return this.exited;
  }

  /** SIGKILL: Hermes dies where it stands (in the middle of a write, if it holds the lock). */
  kill(): Promise<void> {
    this.killed = true;
    this.child.kill('SIGKILL');
    return this.exited;
  }

  private command(line: string, expected: string): Promise<void> {
    return new Promise((resolve, reject) => {
      this.replies.push({
        resolve: (reply) => (reply === expected ? resolve() : reject(new Error(`Hermes process, ${line}: ${reply}`))),
        reject,
      });
      this.child.stdin!.write(line + '\n');
    });
  }

  private receive(line: string): void {
    if (line === 'ready') this.onReady?.();
    else if (line === 'released') this.onReleased();
    else this.replies.shift()?.resolve(line);
  }
}

export interface WriteLockHold {
  readonly pid: number;
  /** Commits the holder's transaction now (instead of after `ms`) and waits for it to exit. */
  release(): Promise<void>;
  /** Settles when the holder has committed and exited. */
  readonly done: Promise<void>;
}

export interface HoldWriteLockOptions {
  /** SQL the holder runs under the lock, committed when it lets go (a Hermes write in progress). */
  readonly sql?: string;
}

/** A Hermes process holding the write lock of `dbFile` for `ms`; resolves once it holds it. */
export async function holdWriteLock(dbFile: string, ms: number, options: HoldWriteLockOptions = {}): Promise<WriteLockHold> {
  const hermes = await HermesProcess.start(dbFile);
  try {
    await hermes.lock({ sql: options.sql, releaseAfterMs: ms });
  } catch (error) {
    await hermes.stop().catch(() => undefined);
    throw error;
  }
  // Once it let go by itself, it has nothing left to do.
  void hermes.released.then(() => hermes.stop().catch(() => undefined));
  return { pid: hermes.pid, done: hermes.exited, release: () => hermes.stop() };
}

function main(dbFile: string): void {
  const hermes = SimulatedHermes.open(dbFile);
  const say = (line: string) => process.stdout.write(line + '\n');
  let release: (() => void) | undefined;
  let timer: NodeJS.Timeout | undefined;
  const letGo = () => {
    clearTimeout(timer);
    timer = undefined;
    const commit = release;
    release = undefined;
    commit?.();
  };
  const lines = readline.createInterface({ input: process.stdin });
  lines.on('line', (line) => {
    const [command, given] = line.split(/ (.*)/s);
    try {
      if (command === 'lock') {
        if (release) throw new Error('the lock is held already');
        const options = (given ? JSON.parse(given) : {}) as LockOptions;
        release = hermes.hold({ sql: options.sql });
        if (options.releaseAfterMs !== undefined) {
          timer = setTimeout(() => {
            letGo();
            say('released');
          }, options.releaseAfterMs);
        }
        say('locked');
      } else if (command === 'unlock') {
        letGo();
        say('unlocked');
      } else {
        throw new Error(`unknown command ${JSON.stringify(line)}`);
      }
    } catch (error) {
      say(`error ${(error as Error).message}`);
    }
  });
  lines.on('close', () => {
    letGo();
    hermes.close();
    process.exit(0);
  });
  say('ready');
}

if (require.main === module) {
  const dbFile = process.argv[2];
  if (!dbFile) {
    process.stderr.write('usage: hermesProcess <state.db>\n');
    process.exit(2);
  }
  try {
    main(path.resolve(dbFile));
  } catch (error) {
    process.stderr.write(`${(error as Error).message}\n`);
    process.exit(1);
  }
}
