// The folder `hermes-lens demo` writes its home into, held for the run: a lock file beside it (made
// only if absent, holding the run's process id), so a second demo at the same time never deletes
// the home the first is writing or reading. Without --dir the demo takes the usual folder when no
// other run holds it, else a folder of its own beside it; with --dir a held folder is refused. A
// lock whose process has gone (a run killed midway) is taken over.
import fs = require('node:fs');
import path = require('node:path');
import { HermesError } from '../hermes/errors';
import { takeOver } from '../hermes/lockFile';

export interface DemoFolder {
  readonly dir: string;
  /** Set when another run held the usual folder, which this run left alone. */
  readonly busy: string | undefined;
  release(): void;
}

/** The folder to write the demo home into: `dir` (the usual one, or the user's `--dir` when `chosen`). */
export function claimDemoFolder(dir: string, chosen: boolean): DemoFolder {
  const lock = `${dir}.lock`;
  if (tryLock(lock)) return { dir, busy: undefined, release: () => unlock(lock) };
  if (chosen) throw new HermesError('demo-busy', `Another hermes-lens demo is writing ${dir} (its lock: ${lock}); wait for it to finish, or give another --dir.`, dir);
  // A folder of this run's own beside the usual one: nothing else writes there.
  return { dir: fs.mkdtempSync(`${dir}-`), busy: dir, release: () => undefined };
}

/** Makes `lock` holding this process's id; false while a live process holds it. */
function tryLock(lock: string): boolean {
  fs.mkdirSync(path.dirname(lock), { recursive: true });
  for (let attempt = 0; attempt < 3; attempt++) {
    try {
      const fd = fs.openSync(lock, 'wx', 0o600);
      fs.writeSync(fd, String(process.pid));
      fs.closeSync(fd);
      return true;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    }
    const held = holder(lock);
    if (held === undefined) continue; // gone meanwhile
    if (heldByLiveRun(held)) return false;
    takeOver(lock, held.stat);
  }
  return false;
}

/** The process id a lock holds, with the lock's stat (what takeOver compares); undefined when it is gone. */
function holder(lock: string): { pid: number; stat: fs.Stats } | undefined {
  try {
    const stat = fs.statSync(lock);
    return { pid: Number(fs.readFileSync(lock, 'utf8').trim()), stat };
  } catch {
    return undefined;
  }
}

/** A lock without an id is one being written (its maker alive) unless it is older than that takes. */
const WRITTEN_WITHIN_MS = 10_000;

function heldByLiveRun(held: { pid: number; stat: fs.Stats }): boolean {
  if (!Number.isInteger(held.pid) || held.pid <= 0) return Date.now() - held.stat.mtimeMs < WRITTEN_WITHIN_MS;
  return alive(held.pid);
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** Removes `lock` if it is still this process's. */
function unlock(lock: string): void {
  if (holder(lock)?.pid === process.pid) fs.rmSync(lock, { force: true });
}
