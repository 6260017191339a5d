// Which Hermes build wrote a stored prompt, as far as its prose tells (hermesProse.ts), and so which
// build's tool-schema sizes price its requests (cost/toolSchemas.ts). build-prose.json holds every
// entry of the prompts each corpus build wrote (scripts/hermes-corpus/prose-signatures.mjs).
import buildProse from './build-prose.json';
import { newestReleaseTable, releaseTableOfVersion, toolTableNamed, type ToolTable } from '../cost/toolSchemas';

interface BuildProseFile {
  readonly builds: Readonly<Record<string, readonly string[]>>;
}

/** Each build's entries by key (area and first line's hash) → the paragraphs' hashes it writes under that key. */
const SIGNATURES: ReadonlyArray<{ readonly build: string; readonly entries: ReadonlyMap<string, ReadonlySet<string>>; readonly size: number }> = Object.entries(
  (buildProse as BuildProseFile).builds,
).map(([build, entries]) => {
  const byKey = new Map<string, Set<string>>();
  for (const entry of entries) {
    const key = entry.slice(0, 9);
    const values = byKey.get(key) ?? new Set<string>();
    values.add(entry.slice(9));
    byKey.set(key, values);
  }
  return { build, entries: byKey, size: entries.length };
});

/**
 * The corpus build whose prose matches the fingerprint best: the most of its entries written the
 * same, less those written otherwise under the same first line; among equals the build that writes
 * the least besides (a fork writes all of its base's paragraphs and more). Undefined when no build
 * matches more than it contradicts.
 */
export function buildOfProse(fingerprint: string): string | undefined {
  if (!fingerprint) return undefined;
  let kept = told.get(fingerprint);
  if (kept !== undefined) return kept || undefined;
  const entries = fingerprint.split(',');
  let best: { build: string; score: number; size: number } | undefined;
  for (const signature of SIGNATURES) {
    let score = 0;
    for (const entry of entries) {
      const values = signature.entries.get(entry.slice(0, 9));
      if (values) score += values.has(entry.slice(9)) ? 1 : -1;
    }
    if (score > 0 && (!best || score > best.score || (score === best.score && signature.size < best.size))) best = { build: signature.build, score, size: signature.size };
  }
  kept = best?.build ?? '';
  if (told.size >= TOLD_KEPT) told.clear();
  told.set(fingerprint, kept);
  return kept || undefined;
}

// Sessions share their prompts' fingerprints: a profile has a handful.
const told = new Map<string, string>();
const TOLD_KEPT = 1024;

/** Why a session's tools are priced by the table they are. */
export type ToolTableBasis = 'prompt' | 'installed' | 'newest';

export interface ToolTableChoice {
  readonly table: ToolTable;
  readonly by: ToolTableBasis;
}

/**
 * The tool-schema table for a session: that of the build its prompt's prose shows, else that of
 * the installed build's version (a release of exactly that version), else the newest release.
 */
export function toolTableFor(prose: string | undefined, installedVersion: string | undefined): ToolTableChoice {
  const build = prose ? buildOfProse(prose) : undefined;
  const fromPrompt = build === undefined ? undefined : toolTableNamed(build);
  if (fromPrompt) return { table: fromPrompt, by: 'prompt' };
  const installed = releaseTableOfVersion(installedVersion);
  if (installed) return { table: installed, by: 'installed' };
  return { table: newestReleaseTable(), by: 'newest' };
}
