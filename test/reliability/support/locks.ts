// Seeing SQLite's write lock from outside: the kernel lists every POSIX lock in /proc/locks, so we can
// tell whether a process is inside a write transaction at the moment we kill it. SQLite's unix VFS
// takes, for a write transaction, the RESERVED byte of the database file (rollback journal) or the
// WAL_WRITE_LOCK byte (offset 120) of the -shm file (WAL). Also a client for lockServer.js.
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as readline from 'node:readline';
import { SUPPORT_DIR } from './env';

const RESERVED_BYTE = 0x40000001;
const WAL_WRITE_LOCK_BYTE = 120;

function inode(file: string): number | undefined {
  try {
    return fs.statSync(file).ino;
  } catch {
    return undefined;
  }
}

/** Pids that hold the write lock of `dbFile` right now (read from /proc/locks). */
export function writeLockHolders(dbFile: string): Set<number> {
  const db = inode(dbFile);
  const shm = inode(dbFile + '-shm');
  const holders = new Set<number>();
  let table = '';
  try {
    table = fs.readFileSync('/proc/locks', 'utf8');
  } catch {
    return holders;
  }
  for (const line of table.split('\n')) {
    const f = line.trim().split(/\s+/);
    // "1: POSIX  ADVISORY  WRITE 1234 fe:00:5678 120 120"; waiters show "->" and hold nothing.
    if (f.length < 8 || f[1] === '->' || f[1] !== 'POSIX' || f[3] !== 'WRITE') continue;
    const pid = Number(f[4]);
    const ino = Number(f[5]!.split(':')[2]);
    const start = Number(f[6]);
    const end = f[7] === 'EOF' ? Infinity : Number(f[7]);
    const covers = (byte: number) => start <= byte && byte <= end;
    if ((ino === db && covers(RESERVED_BYTE)) || (shm !== undefined && ino === shm && covers(WAL_WRITE_LOCK_BYTE))) holders.add(pid);
  }
  return holders;
}

/** Whether /proc/locks can be read here (Linux). */
export function canSeeLocks(): boolean {
  return fs.existsSync('/proc/locks');
}

/** A Hermes-like process that holds the write lock of a state.db on request. */
export class LockServer {
  private readonly child: ChildProcessWithoutNullStreams;
  private readonly replies: string[] = [];
  private waiting: ((line: string) => void) | undefined;

  /** `as`: run the holder as another user (its sidecar files are then that user's). */
  constructor(dbFile: string, as?: { uid: number; gid: number }) {
    this.child = spawn(process.execPath, [path.join(SUPPORT_DIR, 'lockServer.js'), dbFile], { stdio: ['pipe', 'pipe', 'pipe'], ...(as ?? {}) });
    readline.createInterface({ input: this.child.stdout }).on('line', (line) => {
      if (this.waiting) {
        const w = this.waiting;
        this.waiting = undefined;
        w(line);
      } else {
        this.replies.push(line);
      }
    });
  }

  get pid(): number {
    return this.child.pid ?? -1;
  }

  private command(line: string): Promise<string> {
    this.child.stdin.write(line + '\n');
    const queued = this.replies.shift();
    if (queued !== undefined) return Promise.resolve(queued);
    return new Promise((resolve) => (this.waiting = resolve));
  }

  /** Resolves once the holder has opened the database (it answers `unlock` without holding anything). */
  async ready(): Promise<void> {
    await this.unlock();
  }

  async lock(): Promise<void> {
    const reply = await this.command('lock');
    if (reply !== 'locked') throw new Error(`lock server: ${reply}`);
  }

  async unlock(): Promise<void> {
    const reply = await this.command('unlock');
    if (reply !== 'unlocked') throw new Error(`lock server: ${reply}`);
  }

  stop(): Promise<void> {
    return new Promise((resolve) => {
      if (this.child.exitCode !== null) return resolve();
      this.child.once('exit', () => resolve());
      this.child.stdin.end();
    });
  }
}
