// A digest of everything a judgement of a stored prompt depends on besides the prompt itself: what
// the sources render for one session cwd, as far as parsing the prompt (SOUL.md as the identity
// hint, the caller's system message), the staleness reasons and the rebuild read it. Two equal
// digests judge any stored prompt alike, which is what lets a verdict be kept on disk
// (persistedAnalyses.ts). The digest is a hash: no text of the sources is kept.
import { createHash } from 'node:crypto';
import type { ProfileConfig } from '../profile/config';
import type { MemorySource, ProjectContext, RenderedSources, SoulSource } from '../sources/types';

/**
 * Bump when parsing, judging or rebuilding changes what it makes of the same inputs: verdicts kept
 * by an older build are then not reused. 2: a SOUL.md whose last paragraphs were deleted is stale
 * (build 1 kept such prompts as fresh). 3: a verdict keeps whether its prompt's tokens were
 * counted (exact for o200k models), not whether they were exact for the model it was parsed for.
 * 4: prompts are read by the inputs they carry (the skills index by its tags, parent-folder
 * context files only where the prompt's build loads them) and keep a fingerprint of Hermes' prose.
 * 5: a prompt without project context whose prose is that of a build reading the session's folder
 * only is not stale for a parent folder's AGENTS.md. 6: digests per source part, and what a new
 * SOUL.md needs to judge a prompt without its text. 7: the project context's too. 8: a prompt is
 * judged against the project context its build loads where an AGENTS.override.md takes part, a
 * names-only skills line by its names, and the focus-mode note after it is not the build's prose.
 * 9: a profile line after the trailer is found, and the prose fingerprint says where the line sits.
 */
export const JUDGING_VERSION = 9;

// The profile's own parts are the same objects for every cwd, and a cwd's project context stays the
// same object until one of its files changes: hashed once each.
const profilePartDigests = new WeakMap<object, string>();

export function judgingDigest(config: ProfileConfig, sources: RenderedSources): string {
  const { soul, skills, memory, user, projectContext } = sources;
  // One digest per part, in DIGEST_PARTS order, joined: a later run tells which parts changed (changedParts).
  return [
    digestOf(JSON.stringify([JUDGING_VERSION, config.agentSystemPrompt ?? null])),
    soulPartDigest(soul),
    partDigest(skills, () => [
      skills.block,
      skills.entries.map((e) => [e.name, e.category, e.promptDescription, e.file, e.visible]),
      [...skills.categories].map(([category, info]) => [category, info.description, info.file]),
    ]),
    partDigest(projectContext, () => [contextInputs(projectContext), projectContext.otherReadings ? [contextInputs(projectContext.otherReadings.ignored), contextInputs(projectContext.otherReadings.appended)] : null]),
    memoryPartDigest(memory),
    memoryPartDigest(user),
  ].join('.');
}

/** What judging reads of one reading of the project context. */
function contextInputs(context: ProjectContext): unknown[] {
  return [context.block, context.files.map((f) => [f.label ?? null, f.path, f.rendered])];
}

// Asked once per prompt of an evaluation, for a few renderings (one per cwd and platform).
const digestsOfSources = new WeakMap<RenderedSources, string>();

/** judgingDigest, made once per rendering of the sources (which a change of config.yaml renders anew). */
export function sourcesDigest(config: ProfileConfig, sources: RenderedSources): string {
  let digest = digestsOfSources.get(sources);
  if (digest === undefined) digestsOfSources.set(sources, (digest = judgingDigest(config, sources)));
  return digest;
}

/** What a judging digest is made of, in order: the judging build and config.yaml's caller message, then each source part. */
export const DIGEST_PARTS = ['judging', 'soul', 'skills', 'projectContext', 'memory', 'user'] as const;

/** The parts (DIGEST_PARTS) whose digests differ between two judging digests; every part when they are not alike made. */
export function changedParts(before: string, after: string): readonly DigestPart[] {
  // Asked once per prompt after an edit, for a few distinct pairs (one per cwd).
  let byBefore = changedByAfter.get(after);
  if (!byBefore) {
    if (changedByAfter.size >= PAIRS_KEPT) changedByAfter.clear();
    changedByAfter.set(after, (byBefore = new Map()));
  }
  let changed = byBefore.get(before);
  if (!changed) byBefore.set(before, (changed = partsThatDiffer(before, after)));
  return changed;
}

const changedByAfter = new Map<string, Map<string, readonly DigestPart[]>>();
const PAIRS_KEPT = 256;

function partsThatDiffer(before: string, after: string): readonly DigestPart[] {
  const a = before.split('.');
  const b = after.split('.');
  if (a.length !== DIGEST_PARTS.length || b.length !== DIGEST_PARTS.length) return DIGEST_PARTS;
  return DIGEST_PARTS.filter((_, i) => a[i] !== b[i]);
}

/** SOUL.md's part of a judging digest: all a status renders after an edit of SOUL.md alone (sourceDigests.ts). */
export function soulPartDigest(soul: SoulSource): string {
  return partDigest(soul, () => [soul.exists, soul.path, soul.block]);
}

/** MEMORY.md's or USER.md's part of a judging digest. */
export function memoryPartDigest(memory: MemorySource): string {
  return partDigest(memory, () => [memory.kind, memory.path, memory.block]);
}

export type DigestPart = (typeof DIGEST_PARTS)[number];

/** `digest` with the parts in `parts` replaced by their digests there. */
export function withParts(digest: string, parts: ReadonlyMap<DigestPart, string>): string {
  const split = digest.split('.');
  for (const [part, value] of parts) split[DIGEST_PARTS.indexOf(part)] = value;
  return split.join('.');
}

function partDigest(part: object, fields: () => unknown[]): string {
  let digest = profilePartDigests.get(part);
  if (digest === undefined) profilePartDigests.set(part, (digest = digestOf(JSON.stringify(fields()))));
  return digest;
}

// 128 bits per part: a digest says "the same input" for the verdicts kept on disk.
function digestOf(text: string): string {
  return createHash('sha256').update(text).digest('base64url').slice(0, 22);
}
