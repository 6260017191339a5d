// What a Windows `hermes.exe` or `hermes.cmd` runs, read from its bytes, never by running it. pip
// (distlib) and uv write a console script as a small launcher .exe with the zipped script appended
// and the interpreter's path inside: distlib as a `#!C:\…\python.exe` line before the zip, uv after
// it or, in newer releases, as a PE resource, always as UTF-8. A batch file names its programs.
import path = require('node:path');

/** An absolute Windows path (drive or share) that ends in a Python interpreter, `pythonw.exe` and `python3.12.exe` included. */
const INTERPRETER = /(?:[A-Za-z]:\\|\\\\[^\\\x00-\x1f"<>|*?]+\\)[^\x00-\x1f"<>|*?]*?\\pythonw?(?:3(?:\.\d+)?)?\.exe/gi;

/** Every absolute path to a Python interpreter the launcher holds, in the order it holds them. */
export function interpretersInLauncher(bytes: Buffer): string[] {
  // latin1 keeps one character per byte, so a UTF-8 path (a user name with `ë`) is cut out whole and decoded after.
  const text = bytes.toString('latin1');
  const found: string[] = [];
  for (const match of text.matchAll(INTERPRETER)) {
    const named = Buffer.from(match[0], 'latin1').toString('utf8');
    if (!found.includes(named)) found.push(named);
  }
  return found;
}

/** Whether the launcher carries Hermes' console script (`from hermes_cli.main import main`; pip and uv store the script uncompressed). */
export function carriesHermesMain(bytes: Buffer): boolean {
  return bytes.includes('from hermes_cli.main import main');
}

/**
 * The absolute Windows paths a batch file (`hermes.cmd`, `hermes.bat`) names, quoted or not, with
 * `%~dp0` (the batch file's own folder) put in; `dir` is that folder.
 */
export function pathsInBatch(text: string, dir: string): string[] {
  const own = dir.endsWith('\\') ? dir : `${dir}\\`;
  const expanded = text.replace(/%~dp0\\?/gi, own);
  const found: string[] = [];
  for (const match of expanded.matchAll(/"((?:[A-Za-z]:[\\/]|\\\\)[^"\r\n]*)"|(?:^|[\s=(])((?:[A-Za-z]:[\\/])[^\s"&|<>()]*)/gm)) {
    const named = path.win32.normalize(match[1] ?? match[2]!);
    if (!found.includes(named)) found.push(named);
  }
  return found;
}
