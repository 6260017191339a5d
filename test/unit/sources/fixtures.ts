// Temp-dir fixtures for the source tests: real files on disk, removed after each suite.
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';

/** A fresh temp dir (realpath'd, as discovery resolves paths), removed by `cleanup()`. */
export function tempDir(prefix = 'hermes-lens-'): string {
  const dir = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), prefix)));
  created.push(dir);
  return dir;
}

const created: string[] = [];

export function cleanup(): void {
  for (const dir of created.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
}

/** Writes `content` to `root/rel`, creating directories. */
export function write(root: string, rel: string, content: string | Buffer): string {
  const file = path.join(root, rel);
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, content);
  return file;
}

export function skill(root: string, rel: string, fields: Record<string, string>, body = 'Steps.\n'): string {
  const lines = Object.entries(fields).map(([k, v]) => `${k}: ${v}`);
  return write(root, path.join(rel, 'SKILL.md'), `---\n${lines.join('\n')}\n---\n\n${body}`);
}
