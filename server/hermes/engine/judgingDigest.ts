// A digest of everything a judgement of a stored prompt depends on besides the prompt itself: what
// the sources render for one session cwd, as far as parsing the prompt (SOUL.md as the identity
// hint, the caller's system message), the staleness reasons and the rebuild read it. Two equal
// digests judge any stored prompt alike, which is what lets a verdict be kept on disk
// (persistedAnalyses.ts). The digest is a hash: no text of the sources is kept.
import { createHash } from 'node:crypto';
import type { ProfileConfig } from '../profile/config';
import type { RenderedSources } from '../sources/types';

/**
 * Bump when parsing, judging or rebuilding changes what it makes of the same inputs: verdicts kept
 * by an older build are then not reused. 2: a SOUL.md whose last paragraphs were deleted is stale
 * (build 1 kept such prompts as fresh). 3: a verdict keeps whether its prompt's tokens were
 * counted (exact for o200k models), not whether they were exact for the model it was parsed for.
 * 4: prompts are read by the inputs they carry (the skills index by its tags, parent-folder
 * context files only where the prompt's build loads them) and keep a fingerprint of Hermes' prose.
 * 5: a prompt without project context whose prose is that of a build reading the session's folder
 * only is not stale for a parent folder's AGENTS.md.
 */
export const JUDGING_VERSION = 5;

// The profile's own parts are the same objects for every cwd: hashed once each.
const profilePartDigests = new WeakMap<object, string>();

export function judgingDigest(config: ProfileConfig, sources: RenderedSources): string {
  const { soul, skills, memory, user, projectContext } = sources;
  const hash = createHash('sha256');
  hash.update(JSON.stringify([JUDGING_VERSION, config.agentSystemPrompt ?? null]));
  hash.update(partDigest(soul, () => [soul.exists, soul.path, soul.block]));
  hash.update(
    partDigest(skills, () => [
      skills.block,
      skills.entries.map((e) => [e.name, e.category, e.promptDescription, e.file, e.visible]),
      [...skills.categories].map(([category, info]) => [category, info.description, info.file]),
    ]),
  );
  hash.update(partDigest(memory, () => [memory.kind, memory.path, memory.block]));
  hash.update(partDigest(user, () => [user.kind, user.path, user.block]));
  hash.update(JSON.stringify([projectContext.block, projectContext.files.map((f) => [f.label ?? null, f.path, f.rendered])]));
  return hash.digest('base64url');
}

function partDigest(part: object, fields: () => unknown[]): string {
  let digest = profilePartDigests.get(part);
  if (digest === undefined) profilePartDigests.set(part, (digest = createHash('sha256').update(JSON.stringify(fields())).digest('base64url')));
  return digest;
}
