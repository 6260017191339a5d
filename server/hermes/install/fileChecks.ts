// Questions about installation files that answer no rather than throw: a path that is missing,
// unreadable or a loop is simply not what the caller looks for.
import fs = require('node:fs');

export function isFile(file: string): boolean {
  try {
    return fs.statSync(file).isFile();
  } catch {
    return false;
  }
}

/** A regular file of at most `maxBytes`: a launcher or script is small, a larger file is some other program. */
export function isSmallFile(file: string, maxBytes: number): boolean {
  try {
    const stat = fs.statSync(file);
    return stat.isFile() && stat.size <= maxBytes;
  } catch {
    return false;
  }
}

export function isDirectory(dir: string): boolean {
  try {
    return fs.statSync(dir).isDirectory();
  } catch {
    return false;
  }
}

export function realPathOrUndefined(file: string): string | undefined {
  try {
    return fs.realpathSync(file);
  } catch {
    return undefined;
  }
}

/** The names in `dir` (none when it cannot be listed). */
export function listing(dir: string): string[] {
  try {
    return fs.readdirSync(dir);
  } catch {
    return [];
  }
}

/** What went wrong with a path, as the end of a sentence that starts with the path. */
export function whyUnreadable(error: { readonly code?: string; readonly message?: string }): string {
  switch (error.code) {
    case 'ENOENT':
      return 'does not exist';
    case 'ENOTDIR':
      return 'is not inside a folder';
    case 'ELOOP':
      return 'is a symbolic link that loops';
    case 'EACCES':
    case 'EPERM':
      return 'cannot be read (permission denied)';
    case 'ENOTREG':
      return 'is not a regular file';
    case 'EISDIR':
      return 'is a folder';
    default:
      return `cannot be read (${error.message ?? error.code})`;
  }
}
