// Paths as the lens compares them: the real path discovery and the walkers see (fs/recordingFs.ts
// resolves with the same call), so a file reached through a link is the same file everywhere. A
// Windows path keeps its flavour on any machine and gets an upper-case drive letter, as Hermes
// writes it (pathFlavour.ts).
import fs = require('node:fs');
import { flavourOf, resolvedPath, upperDrive } from './pathFlavour';

/** realpath(3) in one call; on Windows the native call resolves drives and shares differently, so there the JavaScript one. */
export function resolvedRealPath(file: string): string {
  return process.platform === 'win32' ? fs.realpathSync(file) : fs.realpathSync.native(file);
}

/** The real path of `file`; for a file not on disk, its folder's real path and its name; else the resolved path. */
export function canonicalPath(file: string): string {
  const p = flavourOf(file);
  try {
    return upperDrive(resolvedRealPath(file));
  } catch {
    try {
      return upperDrive(p.join(resolvedRealPath(p.dirname(p.resolve(file))), p.basename(file)));
    } catch {
      return resolvedPath(file);
    }
  }
}
