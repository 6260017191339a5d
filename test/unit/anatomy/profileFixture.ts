// A small Hermes profile on disk and a prompt built from it, shared by the anatomy and builder tests.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { DEFAULT_CONFIG } from '../../../server/hermes/profile/config';
import { buildSystemPrompt, buildSystemPromptTiers, type BuildPromptInput } from '../../../server/hermes/sources/promptBuilder';
import { renderSources } from '../../../server/hermes/sources/renderSources';
import type { RenderedSources } from '../../../server/hermes/sources/types';
import { skill, tempDir, write } from '../sources/fixtures';

export const CALLER = 'Always answer in British English.';
export const PLATFORM_HINT = 'You are on Telegram. Keep replies short and use bullet lists.';

export interface ProfileFixture {
  readonly top: string;
  readonly profileDir: string;
  readonly cwd: string;
  render(): RenderedSources;
  input(sources: RenderedSources, extra?: Partial<BuildPromptInput>): BuildPromptInput;
  build(extra?: Partial<BuildPromptInput>): { prompt: string; sources: RenderedSources; tiers: ReturnType<typeof buildSystemPromptTiers> };
}

export function profileFixture(): ProfileFixture {
  const top = tempDir();
  const root = path.join(top, 'home');
  const profileDir = path.join(root, 'profiles', 'coder');
  const repo = path.join(top, 'repo');
  const cwd = path.join(repo, 'app');
  fs.mkdirSync(path.join(repo, '.git'), { recursive: true });
  fs.mkdirSync(cwd, { recursive: true });
  write(profileDir, 'SOUL.md', '# Persona\n\nYou are Ada, a careful engineer.\n\n## Style\n\nShort answers. No filler.\n');
  skill(path.join(profileDir, 'skills'), 'devops/deploy', { name: 'deploy', description: 'Deploy the service' });
  skill(path.join(profileDir, 'skills'), 'notes', { name: 'notes', description: 'Take notes' });
  write(profileDir, 'memories/MEMORY.md', 'Project uses pnpm\n§\nCI runs on GitHub Actions');
  write(profileDir, 'memories/USER.md', 'Name: Sam\n§\nPrefers terse answers');
  write(repo, 'AGENTS.md', '# Repo rules\n\nRun the tests.\n\n## Setup\n\nUse pnpm.');
  write(cwd, 'AGENTS.md', 'App rules.');
  const render = () => renderSources({ dir: profileDir }, DEFAULT_CONFIG, cwd, { stopAt: top, platform: 'linux' });
  const input = (sources: RenderedSources, extra: Partial<BuildPromptInput> = {}): BuildPromptInput => ({
    sources,
    callerSystemMessage: CALLER,
    platformHint: PLATFORM_HINT,
    activeProfile: { name: 'coder', root, dir: profileDir },
    trailer: { startedAt: Date.UTC(2026, 0, 5, 15, 30) / 1000, timeZone: 'America/New_York', sessionId: '20260105_103000_a1b2c3', model: 'claude-sonnet-4-6', provider: 'anthropic', platform: 'telegram' },
    runtime: { host: 'Linux (6.8.0)', home: '/home/sam', cwd },
    ...extra,
  });
  return {
    top,
    profileDir,
    cwd,
    render,
    input,
    build(extra = {}) {
      const sources = render();
      return { prompt: buildSystemPrompt(input(sources, extra)), sources, tiers: buildSystemPromptTiers(input(sources, extra)) };
    },
  };
}
