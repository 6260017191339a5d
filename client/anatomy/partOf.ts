// Which part of a prompt map a file belongs to, to select it when the view opens from a hover.
// Pure: no vscode import.
import path = require('node:path');
import type { PromptMapDto } from '../../shared/protocol';

/** The part of `file`, the skills index for one of its SKILL.md files, or the folder part it is in; null when none. */
export function partOf(map: PromptMapDto, file: string): number | null {
  const own = map.parts.findIndex((p) => p.path === file || p.entries.some((e) => e.path === file));
  if (own >= 0) return own;
  const inside = (folder: string) => {
    const rel = path.relative(folder, file);
    return rel !== '' && !rel.startsWith('..') && !path.isAbsolute(rel);
  };
  const folder = map.parts.findIndex((p) => p.origin === 'folder' && p.path !== null && inside(p.path));
  return folder >= 0 ? folder : null;
}
