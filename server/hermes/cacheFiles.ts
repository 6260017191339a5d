// Writing a file of the lens's own cache folder (cacheFolder.ts): token counts, price answers, the
// analyses `status` keeps, the CLI's code cache. Each is private to the user and must never be
// seen half written by a process reading it at the same time, so it is written whole to a
// temporary file beside it and renamed over it.
import fs = require('node:fs');
import path = require('node:path');

/** Writes `data` to `file` atomically, mode 0600, making its folder (0700) when missing. Throws on failure. */
export function writeCacheFile(file: string, data: string | Uint8Array): void {
  fs.mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
  const temp = `${file}.${process.pid}.tmp`;
  fs.writeFileSync(temp, data, { mode: 0o600 });
  fs.renameSync(temp, file);
}
