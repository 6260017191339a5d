// SOUL.md, the identity that opens the stable tier (HERMES-FORMATS §2, `PB.load_soul_md`). Besides
// rendering it as Hermes does, it flags text that differs per profile or home: the stable tier is
// meant to be byte-identical everywhere (seed 004), so a path or profile name there splits the
// shared prompt-cache prefix.
import os = require('node:os');
import path = require('node:path');
import type { ProfileConfig } from '../profile/config';
import { blockedMessage, locateFindings, scanContextContent } from './injectionScan';
import { positionsOf } from '../text/positions';
import { pyLstrip, pyStrip } from '../text/pyText';
import { readText } from '../fs/readText';
import type { SourceFs } from '../fs/sourceFs';
import { contextFileCap, truncateContextText, truncationMessage } from './truncate';
import type { SoulSource, SourceProblem } from './types';

const MAX_PER_PROFILE_HITS = 50;

export function readSoul(fs: SourceFs, profileDir: string, config: Pick<ProfileConfig, 'contextFileMaxChars'>, contextWindow?: number): SoulSource {
  const file = path.join(profileDir, 'SOUL.md');
  const read = readText(fs, file, { dropBom: true });
  if (!read.ok) return { path: file, exists: false, block: '', problems: read.missing ? [] : [read.problem] };
  return analyzeSoulText(file, read.text, profileDir, config, contextWindow);
}

/**
 * SOUL.md from its text (as an editor shows it: BOM dropped), e.g. an unsaved buffer: the block it
 * puts into the prompt and the problems of that text, with ranges in `text`.
 */
export function analyzeSoulText(
  file: string,
  text: string,
  profileDir: string,
  config: Pick<ProfileConfig, 'contextFileMaxChars'>,
  contextWindow?: number,
): SoulSource {
  // Hermes also removes a legacy Bot-Mode roster here (`strip_legacy_protocol`); its format was
  // not in the sources we read, so such a roster stays in our rendering.
  const content = pyStrip(text);
  if (!content) return { path: file, exists: false, block: '', problems: [] };

  const problems: SourceProblem[] = [];
  const where = positionsOf(text);
  // Offsets into `content` (after the BOM the scan drops) map back to the file's text from here.
  const scanFrom = text.length - pyLstrip(text).length + (content.charCodeAt(0) === 0xfeff ? 1 : 0);
  const scanned = scanContextContent(content, 'SOUL.md');
  if (scanned.findings.length > 0) {
    const located = locateFindings(text.slice(scanFrom), scanned.findings, 'context');
    const message = blockedMessage('SOUL.md', scanned.findings);
    if (located.length === 0) problems.push({ file, code: 'blocked', message });
    for (const hit of located) {
      problems.push({ file, code: 'blocked', message, range: where.range(scanFrom + hit.start, scanFrom + hit.end) });
    }
  }
  const cap = contextFileCap(config, contextWindow);
  const truncation = truncateContextText(scanned.text, cap, 'SOUL.md', file);
  if (truncation.truncated && scanned.findings.length === 0) {
    problems.push({
      file,
      code: 'truncated',
      message: truncationMessage('SOUL.md', truncation, cap),
      range: where.range(scanFrom + truncation.dropped.start, scanFrom + truncation.dropped.end),
    });
  }
  problems.push(...perProfileText(file, text, profileDir));
  return { path: file, exists: true, block: truncation.text, problems };
}

/** Text that names this profile or this machine's home: the same SOUL.md elsewhere would differ. */
function perProfileText(file: string, text: string, profileDir: string): SourceProblem[] {
  const { root, name } = profileOf(profileDir);
  const needles: Array<{ pattern: RegExp; what: string }> = [];
  for (const dir of new Set([profileDir, root, os.homedir()].filter((d) => d && d !== path.parse(d).root))) {
    needles.push({ pattern: new RegExp(escapeRegex(dir), 'g'), what: 'an absolute path of this machine' });
  }
  needles.push({ pattern: /(?:\/home\/|\/Users\/|[A-Za-z]:\\Users\\)[^\s/\\'"`)\]]+/g, what: 'an absolute home path' });
  if (name !== 'default') {
    // Profile names are often plain words ("work"), so only mentions that read as the profile count.
    const n = `(?<![\\p{L}\\p{N}_-])${escapeRegex(name)}(?![\\p{L}\\p{N}_-])`;
    const asProfile = `profiles[\\\\/]${n}|[Pp]rofile[:\\s"'\`]+${n}|${n}["'\`]?\\s+[Pp]rofile|["'\`]${n}["'\`]`;
    needles.push({ pattern: new RegExp(asProfile, 'gu'), what: `the profile name "${name}"` });
  }
  const hits: Array<{ start: number; end: number; what: string }> = [];
  for (const needle of needles) {
    let found = 0;
    for (const match of text.matchAll(needle.pattern)) {
      const start = match.index ?? 0;
      const end = start + match[0].length;
      if (!hits.some((h) => start < h.end && end > h.start)) hits.push({ start, end, what: needle.what });
      // A file full of paths needs no thousand warnings (and the overlap check stays cheap).
      if (++found >= MAX_PER_PROFILE_HITS) break;
    }
  }
  const where = positionsOf(text);
  return hits
    .sort((a, b) => a.start - b.start)
    .map((hit) => ({
      file,
      code: 'per-profile-text' as const,
      message:
        `SOUL.md contains ${hit.what} ("${text.slice(hit.start, hit.end)}"), so it renders otherwise in another profile or home. ` +
        'It opens the stable tier, which profiles share as one cached prefix only where their tool schemas and whole stable tiers are byte-identical: ' +
        "in the Hermes builds the lens has read, skill_manage's schema names each profile's home, so profiles that load it share no prefix either way (Prefix sharing shows this home's). " +
        'Where they could share, the context tier holds per-profile text without parting them (AGENTS.md or agent.system_prompt).',
      range: where.range(hit.start, hit.end),
    }));
}

/** `<root>/profiles/<name>` → that root and name; any other directory is the default profile's root. */
function profileOf(profileDir: string): { root: string; name: string } {
  const parent = path.dirname(profileDir);
  if (path.basename(parent) === 'profiles') return { root: path.dirname(parent), name: path.basename(profileDir) };
  return { root: profileDir, name: 'default' };
}

function escapeRegex(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
}
