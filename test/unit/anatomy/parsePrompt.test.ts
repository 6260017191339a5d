import * as assert from 'node:assert/strict';
import fc from 'fast-check';
import { parsePrompt } from '../../../server/hermes/anatomy/parsePrompt';
import { promptSizeReport } from '../../../server/hermes/anatomy/promptSize';
import { renderMemoryBlock } from '../../../server/hermes/sources/memory';
import { rebuildPrompt } from '../../../server/hermes/sources/promptBuilder';
import { cleanup } from '../sources/fixtures';
import { CALLER, PLATFORM_HINT, profileFixture } from './profileFixture';

describe('anatomy: parsePrompt', () => {
  after(cleanup);

  it('recovers every block of a built prompt, in order', () => {
    const { prompt, sources } = profileFixture().build();
    const anatomy = parsePrompt(prompt, { callerSystemMessage: CALLER });
    assert.deepEqual(
      anatomy.blocks.map((b) => `${b.tier}:${b.kind}`),
      [
        'stable:identity',
        'stable:guidance',
        // Without a workspace snapshot Hermes closes the stable tier with these two.
        'stable:active-profile',
        'stable:platform-hints',
        'context:caller-system',
        'context:project-context',
        'volatile:skills-index',
        'volatile:memory',
        'volatile:user-profile',
        'volatile:conversation-started',
        'volatile:session-id',
        'volatile:model-lines',
        'volatile:runtime-environment',
      ],
    );
    const text = (kind: string) => anatomy.blocks.find((b) => b.kind === kind)?.text;
    assert.equal(anatomy.identity, sources.soul.block);
    assert.equal(text('caller-system'), CALLER);
    assert.equal(text('project-context'), sources.projectContext.block);
    assert.equal(text('platform-hints'), PLATFORM_HINT);
    assert.equal(anatomy.skillsIndex.text, sources.skills.block);
    assert.equal(anatomy.skillsIndex.tier, 'volatile');
    assert.equal(anatomy.memoryBlock, sources.memory.block);
    assert.equal(anatomy.userBlock, sources.user.block);
    for (const b of anatomy.blocks) assert.equal(b.text, prompt.slice(b.start, b.end));
  });

  it('finds the tier boundaries where the builder joined the tiers, and sizes sum to the total', () => {
    const { prompt, tiers } = profileFixture().build();
    const anatomy = parsePrompt(prompt, { callerSystemMessage: CALLER });
    assert.deepEqual(
      anatomy.tiers.map((t) => [t.name, t.start, t.end]),
      [
        ['stable', 0, tiers.stable.length + 2],
        ['context', tiers.stable.length + 2, tiers.stable.length + 2 + tiers.context.length + 2],
        ['volatile', tiers.stable.length + 2 + tiers.context.length + 2, prompt.length],
      ],
    );
    assert.equal(anatomy.bytes, Buffer.byteLength(prompt));
    assert.equal(anatomy.tiers.reduce((n, t) => n + t.bytes, 0), anatomy.bytes);
    assert.ok(anatomy.tokens > 0);
    const report = promptSizeReport(anatomy, false);
    assert.deepEqual(report.rows.map((r) => r.label), ['stable tier', 'context tier', 'volatile tier', 'skills index', 'memory', 'user profile', 'project context', 'total']);
    assert.equal(report.rows[3]!.bytes, Buffer.byteLength(anatomy.skillsIndex.text));
    assert.equal(report.rows[6]!.bytes, Buffer.byteLength(anatomy.blocks.find((b) => b.kind === 'project-context')!.text));
    assert.equal(report.rows[7]!.bytes, anatomy.bytes);
  });

  it('reads the project sections, the skills lines and the trailer values', () => {
    const { prompt } = profileFixture().build();
    const anatomy = parsePrompt(prompt);
    assert.deepEqual(anatomy.projectSections.map((s) => [s.label, s.body]), [
      ['../AGENTS.md', '# Repo rules\n\nRun the tests.\n\n## Setup\n\nUse pnpm.'],
      ['AGENTS.md', 'App rules.'],
    ]);
    assert.deepEqual(anatomy.skillsIndex.lines, [
      { category: 'devops', name: 'deploy', description: 'Deploy the service' },
      // A skill directly under skills/ is filed under its own folder's name.
      { category: 'notes', name: 'notes', description: 'Take notes' },
    ]);
    assert.equal(anatomy.model, 'claude-sonnet-4-6');
    assert.equal(anatomy.provider, 'anthropic');
    assert.equal(anatomy.platform, 'telegram');
    assert.equal(anatomy.conversationStarted, 'Monday, January 05, 2026 (America/New_York, EST, UTC-05:00)');
  });

  it('puts the skills index in the stable tier when it sits before the context tier', () => {
    const { prompt, sources } = profileFixture().build({ skillsIndexTier: 'stable' });
    const anatomy = parsePrompt(prompt);
    assert.equal(anatomy.skillsIndex.tier, 'stable');
    assert.equal(anatomy.skillsIndex.text, sources.skills.block);
    assert.ok(anatomy.tiers[0]!.end > prompt.indexOf('## Skills\n'));
  });

  it('takes the SOUL.md text as the identity when the hint matches, even with headings inside', () => {
    const { prompt, sources } = profileFixture().build();
    assert.equal(parsePrompt(prompt, { identityHint: sources.soul.block }).identity, sources.soul.block);
  });

  it('recognises the default identity by its opening words', () => {
    const prompt = 'You are Hermes Agent, some wording.\n\nYou run on Hermes Agent (by Nous Research). Docs...\n\nActive Hermes profile: default. Other profiles.';
    const anatomy = parsePrompt(prompt);
    assert.equal(anatomy.identity, 'You are Hermes Agent, some wording.');
    assert.deepEqual(anatomy.blocks.map((b) => b.kind), ['identity', 'guidance', 'active-profile']);
  });

  it('measures memory blocks by their header, even when entries hold blank lines', () => {
    const memory = renderMemoryBlock('memory', ['First note\n\nwith a blank line', 'Second'], 2200);
    const big = renderMemoryBlock('user', ['u'.repeat(3000), 'v'.repeat(3000)], 1375);
    const prompt = ['You are Hermes Agent, x.', memory, big, '## Provider memory\n\nRecalled facts.', 'Conversation started: Monday, January 05, 2026 (UTC, UTC+00:00)\nModel: m'].join('\n\n');
    const anatomy = parsePrompt(prompt);
    assert.equal(anatomy.memoryBlock, memory);
    assert.equal(anatomy.userBlock, big);
    assert.deepEqual(anatomy.blocks.map((b) => `${b.tier}:${b.kind}`), ['stable:identity', 'volatile:memory', 'volatile:user-profile', 'volatile:other', 'volatile:conversation-started', 'volatile:model-lines']);
  });

  it("ends a SOUL identity at Hermes' help paragraph, headings inside the SOUL notwithstanding", () => {
    const soul = '# Who I am\n\nAda.\n\n# Rules\n\nBe brief.';
    const prompt = `${soul}\n\nYou run on Hermes Agent (by Nous Research). Docs.\n\n# Finishing the job\nDo it.\n\nActive Hermes profile: default. Other.`;
    assert.equal(parsePrompt(prompt).identity, soul);
  });

  it('treats text with no recognisable block as one other block in stable', () => {
    const anatomy = parsePrompt('Just some text.\n\nAnother paragraph.');
    assert.deepEqual(anatomy.blocks.map((b) => [b.kind, b.tier]), [['other', 'stable']]);
    assert.equal(anatomy.identity, '');
    assert.equal(parsePrompt('').blocks.length, 0);
  });

  it('never throws on arbitrary text, and its blocks and tiers stay consistent', () => {
    const pieces = [
      '# Project Context\n\n', '## AGENTS.md\n\n', '## Skills\n', '<available_skills>\n', '</available_skills>', '═'.repeat(46) + '\n',
      'MEMORY (your personal notes) [', 'USER PROFILE (who the user is) [5% — 1,000/2,200 chars]\n', 'Conversation started: x\n',
      'Model: m\n', '# Hermes runtime environment\n\n', '<!-- End Hermes runtime environment -->', '<!-- hermes-plugin-sections:start -->\n',
      '## Plugin Context: p\n<!-- hermes-plugin-section-chars:3 -->\n\n', '\n<!-- hermes-plugin-sections:end -->', 'Active Hermes profile: x',
      'You are on Telegram.', 'You are Hermes Agent', '\n\n', '\n', '😀', '\uFEFF', '\r\n',
    ];
    const arbitrary = fc.array(fc.oneof(fc.constantFrom(...pieces), fc.string(), fc.string({ unit: 'grapheme' })), { maxLength: 30 }).map((a) => a.join(''));
    fc.assert(
      fc.property(arbitrary, (text) => {
        const anatomy = parsePrompt(text);
        assert.equal(anatomy.tiers.reduce((n, t) => n + t.bytes, 0), anatomy.bytes);
        let at = 0;
        for (const b of anatomy.blocks) {
          assert.ok(b.start >= at && b.end > b.start && b.end <= text.length, `${b.kind} ${b.start}-${b.end}`);
          at = b.end;
        }
        assert.doesNotThrow(() => rebuildPrompt(text, profileFixtureSources));
      }),
      { numRuns: 300 },
    );
  });
});

const profileFixtureSources = {
  soul: { path: '/p/SOUL.md', exists: true, block: 'Soul.', problems: [] },
  skills: { entries: [], categories: new Map(), block: '## Skills\nx\n\n<available_skills>\n  general:\n    - a\n</available_skills>\n\nOnly proceed.', problems: [] },
  projectContext: { kind: 'none' as const, files: [], shadowed: [], block: '', problems: [] },
  memory: { kind: 'memory' as const, path: '/p/m', entries: [], limit: 2200, block: '', problems: [] },
  user: { kind: 'user' as const, path: '/p/u', entries: ['x'], limit: 1375, block: '═'.repeat(46) + '\nUSER PROFILE (who the user is) [0% — 1/1,375 chars]\n' + '═'.repeat(46) + '\nx', problems: [] },
};
