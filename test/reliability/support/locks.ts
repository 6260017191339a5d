// Seeing SQLite's write lock from outside: the kernel lists every POSIX lock in /proc/locks, so we can
// tell whether a process is inside a write transaction at the moment we kill it. SQLite's unix VFS
// takes, for a write transaction, the RESERVED byte of the database file (rollback journal) or the
// WAL_WRITE_LOCK byte (offset 120) of the -shm file (WAL).
import * as fs from 'node:fs';

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
