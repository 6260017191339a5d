import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { buildSystemPrompt, buildSystemPromptTiers, DEFAULT_IDENTITY, rebuildPrompt } from '../../../server/hermes/sources/promptBuilder';
import { PLATFORM_HINT, profileFixture } from '../anatomy/profileFixture';
import { cleanup, write } from './fixtures';

describe('sources: prompt builder', () => {
  after(cleanup);

  it('writes the tiers in Hermes order: the profile line and platform hint close the stable tier without a workspace snapshot', () => {
    const { prompt, tiers, sources } = profileFixture().build();
    assert.equal(prompt, `${tiers.stable}\n\n${tiers.context}\n\n${tiers.volatile}`);
    assert.ok(tiers.stable.startsWith(sources.soul.block + '\n\n# '));
    assert.ok(tiers.stable.includes('\n\nActive Hermes profile: coder. This session reads and writes '));
    assert.ok(tiers.stable.endsWith(PLATFORM_HINT));
    assert.ok(tiers.context.endsWith(sources.projectContext.block));
    assert.ok(!tiers.context.includes('Active Hermes profile'));
    assert.ok(tiers.volatile.startsWith(sources.skills.block + '\n\n' + sources.memory.block + '\n\n' + sources.user.block + '\n\n'));
    assert.ok(tiers.volatile.includes('\nSession ID: 20260105_103000_a1b2c3\nModel: claude-sonnet-4-6\nProvider: anthropic\nPlatform: telegram\n\n# Hermes runtime environment\n\nHost: Linux (6.8.0)\n'));
    assert.ok(prompt.endsWith('<!-- End Hermes runtime environment -->'));
  });

  it('puts the profile line and platform hint after the workspace snapshot, in the context tier, when there is one', () => {
    const f = profileFixture();
    const snapshot = 'Workspace (snapshot at session start — re-check with `git` before acting on it):\n- Root: /repo\n- Branch: main';
    const tiers = buildSystemPromptTiers(f.input(f.render(), { gitSnapshot: snapshot }));
    assert.ok(tiers.context.startsWith(`${snapshot}\n\nActive Hermes profile: coder.`));
    assert.ok(tiers.context.includes(`${PLATFORM_HINT}\n\n`));
    assert.ok(!tiers.stable.includes('Active Hermes profile'));
  });

  it('uses the default identity when SOUL.md is missing, and a UTC date without a zone', () => {
    const f = profileFixture();
    fs.rmSync(path.join(f.profileDir, 'SOUL.md'));
    const sources = f.render();
    const prompt = buildSystemPrompt(f.input(sources, { trailer: { startedAt: Date.UTC(2026, 10, 29, 23, 0) / 1000 } }));
    assert.ok(prompt.startsWith(DEFAULT_IDENTITY + '\n\n'));
    assert.ok(prompt.includes('\n\nConversation started: Sunday, November 29, 2026 (UTC, UTC+00:00)\n\n# Hermes runtime'));
  });

  it('rebuilds a fresh prompt byte for byte', () => {
    const f = profileFixture();
    const { prompt } = f.build();
    assert.equal(rebuildPrompt(prompt, f.render()), prompt);
  });

  it('after a SOUL edit, changes only the identity', () => {
    const f = profileFixture();
    const { prompt, sources } = f.build();
    write(f.profileDir, 'SOUL.md', '# Persona\n\nYou are Ada, now more playful.\n\n## Style\n\nJokes allowed.\n');
    const today = f.render();
    assert.equal(rebuildPrompt(prompt, today), today.soul.block + prompt.slice(sources.soul.block.length));
  });

  it('after an edit of a SOUL.md with several top-level headings, changes only the identity', () => {
    const f = profileFixture();
    write(f.profileDir, 'SOUL.md', '# Who I am\n\nAda.\n\n# Rules\n\nBe brief.');
    const { prompt, sources } = f.build();
    write(f.profileDir, 'SOUL.md', '# Who I am\n\nAda, now in Lisbon.\n\n# Rules\n\nBe brief.\n\n# Extra\n\nMore.');
    const today = f.render();
    assert.equal(rebuildPrompt(prompt, today), today.soul.block + prompt.slice(sources.soul.block.length));
  });

  it('adds, replaces and removes the memory blocks, project context and skills index in place', () => {
    const f = profileFixture();
    const { prompt, sources } = f.build();
    fs.rmSync(path.join(f.profileDir, 'memories/MEMORY.md'));
    write(f.profileDir, 'memories/USER.md', 'Name: Sam\n§\nPrefers terse answers\n§\nLikes tea');
    const today = f.render();
    const expected = prompt.replace(sources.memory.block + '\n\n', '').replace(sources.user.block, today.user.block);
    assert.equal(rebuildPrompt(prompt, today), expected);

    // A stored prompt without the blocks gets them where Hermes puts them.
    const bare = f.build({ sources: { ...sources, memory: { ...sources.memory, block: '' }, skills: { ...sources.skills, block: '' }, projectContext: { ...sources.projectContext, block: '' } } }).prompt;
    assert.equal(rebuildPrompt(bare, sources), prompt);
  });
});
