// Hermes' focus mode lists a coding session's non-coding skill categories by name only. Such a
// prompt is not stale for the descriptions it never held, and a refresh writes today's names the
// same way.
import * as assert from 'node:assert/strict';
import { skillIndexLines } from '../../../server/hermes/anatomy/sections';
import { skillsBlockFor } from '../../../server/hermes/sources/promptBuilder';

const block = (list: string) => `## Skills\nScan the skills below.\n\n<available_skills>\n${list}\n</available_skills>\n\nOnly proceed without loading a skill if genuinely none are relevant to the task.\n(Categories marked [names only] are outside the current coding context.)`;

describe('sources: skills listed by name only (focus mode)', () => {
  const stored = block(['  ops:', '    - triage: Triage a ticket.', '  productivity [names only]: standup-notes'].join('\n'));

  it('reads a names-only line as names without descriptions', () => {
    assert.deepEqual(skillIndexLines(stored).lines.map((l) => [l.category, l.name, l.description, l.namesOnly ?? false]), [
      ['ops', 'triage', 'Triage a ticket.', false],
      ['productivity', 'standup-notes', '', true],
    ]);
  });

  it("a refresh writes today's names of demoted categories by name only, and any other non-coding category too", () => {
    const today = block(
      ['  ops:', '    - triage: Triage a ticket, then label it.', '  productivity:', '    - inbox-zero: Empty the inbox.', '    - standup-notes: Three lines.', '  travel/trips:', '    - packing: Pack.'].join('\n'),
    );
    const rebuilt = skillsBlockFor(stored, today);
    assert.equal(
      rebuilt,
      block(['  ops:', '    - triage: Triage a ticket, then label it.', '  productivity [names only]: inbox-zero, standup-notes', '  travel/trips [names only]: packing'].join('\n')),
    );
    // A session whose list demotes nothing keeps today's full lines.
    const plain = block(['  ops:', '    - triage: Triage a ticket.'].join('\n'));
    assert.ok(skillsBlockFor(plain, today).includes('    - inbox-zero: Empty the inbox.'));
  });
});
