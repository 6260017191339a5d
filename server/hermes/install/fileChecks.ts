// Questions about installation files that answer no rather than throw: a path that is missing,
// unreadable or a loop is simply not what the caller looks for. The disk unless told otherwise.
import { diskInstallFs, type InstallFs } from './installFs';

export function isFile(file: string, fs: InstallFs = diskInstallFs): boolean {
  try {
    return fs.stat(file)?.isFile() ?? false;
  } catch {
    return false;
  }
}

/** A regular file of at most `maxBytes`: a launcher or script is small, a larger file is some other program. */
export function isSmallFile(file: string, maxBytes: number, fs: InstallFs = diskInstallFs): boolean {
  try {
    const stat = fs.stat(file);
    return stat !== undefined && stat.isFile() && stat.size <= maxBytes;
  } catch {
    return false;
  }
}

export function isDirectory(dir: string, fs: InstallFs = diskInstallFs): boolean {
  try {
    return fs.stat(dir)?.isDirectory() ?? false;
  } catch {
    return false;
  }
}

export function realPathOrUndefined(file: string, fs: InstallFs = diskInstallFs): string | undefined {
  try {
    return fs.realPath(file);
  } catch {
    return undefined;
  }
}

/** The names in `dir` (none when it cannot be listed). */
export function listing(dir: string, fs: InstallFs = diskInstallFs): string[] {
  try {
    return fs.listNames(dir);
  } catch {
    return [];
  }
}

/** The bytes of a regular file of at most `maxBytes`, else undefined (missing, unreadable, larger, not a file). */
export function smallFileBytes(file: string, maxBytes: number, fs: InstallFs = diskInstallFs): Buffer | undefined {
  if (!isSmallFile(file, maxBytes, fs)) return undefined;
  try {
    const read = fs.read(file);
    return read.bytes ?? Buffer.from(read.text, 'utf8');
  } catch {
    return undefined;
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
