// What finding an installation reads, as a seam: the SourceFs reads (stat, list, real path, a file's
// bytes) plus the two questions about links the folders and commands need. The disk's is the
// default; a test gives one held in memory (fs/memoryFs.ts, which has no links), so a Windows
// machine's folders can be laid out and searched on any machine.
import fs = require('node:fs');
import { diskFs } from '../fs/diskFs';
import type { SourceFs } from '../fs/sourceFs';

export interface InstallFs extends SourceFs {
  /** Whether anything is at `p`, a link that leads nowhere or loops included. */
  entryExists(p: string): boolean;
  /** Whether `p` itself is a symbolic link. */
  isLink(p: string): boolean;
}

export const diskInstallFs: InstallFs = {
  ...diskFs,
  entryExists: (p) => lstatOf(p) !== undefined,
  isLink: (p) => lstatOf(p)?.isSymbolicLink() ?? false,
};

/** An InstallFs over a SourceFs without links: what a stat finds exists, nothing is a link. */
export function installFsWithoutLinks(inner: SourceFs): InstallFs {
  return {
    read: (p) => inner.read(p),
    stat: (p) => inner.stat(p),
    list: (p) => inner.list(p),
    listNames: (p) => inner.listNames(p),
    realPath: (p) => inner.realPath(p),
    entryExists(p) {
      try {
        return inner.stat(p) !== undefined;
      } catch {
        return true;
      }
    },
    isLink: () => false,
  };
}

function lstatOf(p: string): fs.Stats | undefined {
  try {
    return fs.lstatSync(p);
  } catch {
    return undefined;
  }
}
