// Paths as Hermes wrote them, read the same on any machine. A session that ran on Windows stores
// `C:\Users\ann\repo` as its cwd, one on Linux or macOS `/home/ann/repo`; the path functions that
// read a path are picked from the path itself, never from the platform the lens runs on, so both
// kinds are handled (and tested) everywhere. Windows compares paths without regard to case, as
// its file systems and Python's `PureWindowsPath` do.
import path = require('node:path');

export type PathFlavour = path.PlatformPath;

const DRIVE = /^[A-Za-z]:(?:[\\/]|$)/;
const UNC = /^\\\\[^\\/]/;

/** A drive letter (`C:\`, `c:/`) or a UNC share (`\\server\share`): a path written on Windows. */
export function isWindowsPath(p: string): boolean {
  return DRIVE.test(p) || UNC.test(p);
}

/**
 * The path functions that read `p`: Windows' for a drive or share, POSIX' for a path from `/`, and
 * this platform's for a relative one (it is resolved against this process's own working directory).
 */
export function flavourOf(p: string): PathFlavour {
  if (isWindowsPath(p)) return path.win32;
  return p.startsWith('/') ? path.posix : path;
}

/**
 * `p` resolved in its own flavour, a Windows drive letter in upper case: Windows and Python's
 * `Path.resolve()` spell it so, while VS Code hands files over as `c:\…`.
 */
export function resolvedPath(p: string): string {
  const flavour = flavourOf(p);
  const full = flavour.resolve(p);
  return flavour === path.win32 ? upperDrive(full) : full;
}

/** `C:` for `c:` at the start of a Windows path; any other path as it is. */
export function upperDrive(p: string): string {
  return /^[a-z]:/.test(p) ? p.charAt(0).toUpperCase() + p.slice(1) : p;
}

/** `child` relative to `dir` ('' for `dir` itself, in `dir`'s flavour), or undefined when it is not inside or is of the other flavour. */
export function relativeInside(dir: string, child: string): string | undefined {
  const flavour = flavourOf(dir);
  if (flavourOf(child) !== flavour) return undefined;
  const rel = flavour.relative(dir, child);
  if (rel === '..' || rel.startsWith('..' + flavour.sep) || flavour.isAbsolute(rel)) return undefined;
  // win32's relative() ignores case, as Windows does; another drive gives an absolute path (above).
  return rel;
}

/** Whether `child` is `dir` or lies below it. */
export function isAtOrInside(dir: string, child: string): boolean {
  return relativeInside(dir, child) !== undefined;
}

/** Whether `a` and `b` name the same path (Windows: whatever the case). */
export function samePath(a: string, b: string): boolean {
  return a === b || relativeInside(a, b) === '';
}

/**
 * The last name of a label Hermes wrote with `os.path.relpath` (`../AGENTS.md` on POSIX,
 * `..\AGENTS.md` on Windows): either separator ends a folder. A stored prompt does not say which
 * machine wrote it, and no context file's name holds a backslash.
 */
export function labelBasename(label: string): string {
  return path.win32.basename(label);
}

/** The folder part of such a label (`..` for `..\AGENTS.md`, `.` for `AGENTS.md`), with `/` between names. */
export function labelDirname(label: string): string {
  return path.win32.dirname(label).replace(/\\/g, '/');
}

/** `rel` (a label such as `..\AGENTS.md`) resolved against `base` in `base`'s own flavour. */
export function resolvedIn(base: string, rel: string): string {
  return flavourOf(base).resolve(base, rel);
}

/** The last name of `p`, in its own flavour. */
export function basenameOf(p: string): string {
  return flavourOf(p).basename(p);
}
