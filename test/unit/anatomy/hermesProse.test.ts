// Hermes' own text as a fingerprint: what tells another build from gated guidance.
import * as assert from 'node:assert/strict';
import { proseDifference, proseFingerprint } from '../../../server/hermes/anatomy/hermesProse';
import { parsePrompt } from '../../../server/hermes/anatomy/parsePrompt';

const SOUL = '# Kit\n\nYou are Kit.';
const HELP = 'You run on Hermes Agent (by Nous Research). Read the docs.';
const STEER = '## Mid-turn user steering\nTrust only the marker.';
const SKILLS = '## Skills (mandatory)\nLoad skills.\n\n<available_skills>\n  notes:\n    - notes: Take notes\n</available_skills>\n\nOnly proceed without loading a skill if none fit.';
const TRAILER = 'Conversation started: Monday, January 05, 2026\nModel: m';

function prompt(...parts: string[]): string {
  return parts.join('\n\n');
}

function fingerprint(text: string): string {
  return proseFingerprint(parsePrompt(text, { identityHint: SOUL }));
}

describe('anatomy: Hermes prose fingerprint', () => {
  it('is the same for the same build whatever the inputs, the cwd or the date', () => {
    const a = fingerprint(prompt(SOUL, HELP, STEER, 'Host: Linux\nCurrent working directory: /a', SKILLS, TRAILER));
    const b = fingerprint(prompt(SOUL.replace('Kit.', 'Kit, kind.'), HELP, STEER, 'Host: Linux\nCurrent working directory: /b', SKILLS.replace('Take notes', 'Keep notes'), TRAILER.replace('05', '06')));
    assert.equal(proseDifference(a, b), undefined);
  });

  it('does not count a paragraph only one prompt has (a model or platform gates it)', () => {
    const base = fingerprint(prompt(SOUL, HELP, STEER, SKILLS, TRAILER));
    const gated = fingerprint(prompt(SOUL, HELP, STEER, '# Execution discipline\nCall tools; do not describe them.', SKILLS, TRAILER));
    assert.equal(proseDifference(gated, base), undefined);
  });

  it('names a paragraph whose text changed, the skills prose and the tier the index sits in', () => {
    const base = fingerprint(prompt(SOUL, HELP, STEER, SKILLS, TRAILER));
    assert.equal(proseDifference(fingerprint(prompt(SOUL, HELP, `${STEER} Even in replays.`, SKILLS, TRAILER)), base), 'its 1 paragraph of guidance differs from the newest session\'s');
    assert.match(proseDifference(fingerprint(prompt(SOUL, HELP, STEER, SKILLS.replace('(mandatory)', ''), TRAILER)), base)!, /skills index's heading or instructions/);
    const project = '# Project Context\n\nThe following project context files have been loaded and should be followed:\n\n## AGENTS.md\n\nRules.';
    const stable = fingerprint(prompt(SOUL, HELP, STEER, SKILLS, project, TRAILER));
    const volatile = fingerprint(prompt(SOUL, HELP, STEER, project, SKILLS, TRAILER));
    assert.match(proseDifference(stable, volatile)!, /skills index's tier/);
  });

  it('holds hashes only, never the prompt text', () => {
    const text = prompt(SOUL, HELP, STEER, SKILLS, TRAILER);
    assert.match(fingerprint(text), /^([gsct][0-9a-f]{16})(,[gsct][0-9a-f]{16})*$/);
  });
});
