// Project directories for sessions' cwd: a git root (a `.git` folder is what marks it) and the
// project context files Hermes discovers from cwd (docs/HERMES-FORMATS.md §3): AGENTS.md chains, `.hermes.md`,
// CLAUDE.md, `.cursorrules`.
import fs = require('node:fs');
import path = require('node:path');
import { writeText } from './profileFiles';

export class ProjectBuilder {
  constructor(readonly dir: string) {}

  /** Absolute path of a directory inside the project (created). */
  path(rel = ''): string {
    const dir = path.join(this.dir, rel);
    fs.mkdirSync(dir, { recursive: true });
    return dir;
  }

  /** Writes a file at a project-relative path; returns its absolute path. */
  writeFile(rel: string, text: string): string {
    return writeText(path.join(this.dir, rel), text);
  }

  agentsMd(relDir: string, text: string): string {
    return this.writeFile(path.join(relDir, 'AGENTS.md'), text);
  }

  hermesMd(relDir: string, text: string): string {
    return this.writeFile(path.join(relDir, '.hermes.md'), text);
  }

  claudeMd(relDir: string, text: string): string {
    return this.writeFile(path.join(relDir, 'CLAUDE.md'), text);
  }
}

/** Creates a project directory, by default as a git root (a minimal `.git` folder). */
export function createProject(dir: string, options: { git?: boolean } = {}): ProjectBuilder {
  fs.mkdirSync(dir, { recursive: true });
  if (options.git ?? true) {
    writeText(path.join(dir, '.git', 'HEAD'), 'ref: refs/heads/main\n');
    fs.mkdirSync(path.join(dir, '.git', 'objects'), { recursive: true });
    fs.mkdirSync(path.join(dir, '.git', 'refs', 'heads'), { recursive: true });
  }
  return new ProjectBuilder(dir);
}
