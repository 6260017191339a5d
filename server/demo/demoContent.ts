// The texts of the demo home: personas, skills, memories and project context files. Plain prose
// chosen to pass Hermes' prompt-injection scan (no "ignore … instructions", no hidden text).
import type { SkillSpec } from './profileFiles';

export const DEFAULT_SOUL = `You are Hermes, Dana's engineering assistant.
You work mostly in the atlas monorepo and on the beacon site. Be brief, show the commands you ran,
and say plainly when something is unverified.`;

/** The edit made after the first prompts were stored (stale reason: soul). */
export const DEFAULT_SOUL_EDITED = `${DEFAULT_SOUL}
When a change touches production, list the rollback step first.`;

export const DEFAULT_CONFIG = {
  model: { default: 'claude-opus-4-5', provider: 'anthropic' },
  prompt_caching: { cache_ttl: 'auto' },
  memory: { memory_enabled: true, user_profile_enabled: true },
};

export const CATEGORY_DESCRIPTIONS: ReadonlyArray<readonly [string, string]> = [
  ['devops', 'Build, deploy and operate services'],
  ['research', 'Finding and digesting information'],
  ['writing', 'Drafting and editing text'],
];

export const DEFAULT_SKILLS: readonly SkillSpec[] = [
  { category: 'devops', name: 'deploy-service', description: 'Deploy a service to staging or production' },
  { category: 'devops', name: 'rotate-credentials', description: 'Rotate database and API credentials without downtime' },
  { category: 'devops', name: 'incident-triage', description: 'Triage a production incident and keep a timeline' },
  { category: 'research', name: 'web-research', description: 'Research a question on the web, cross-check at least three independent sources and cite every claim' },
  { category: 'research', name: 'paper-summary', description: 'Summarise a research paper in one page' },
  { category: 'writing', name: 'release-notes', description: 'Write release notes from merged pull requests' },
  { category: 'writing', name: 'customer-reply', description: 'Draft a calm, specific reply to a customer message' },
  { category: 'writing', name: 'translate-docs', description: 'Translate documentation and keep code blocks intact', platforms: ['linux', 'macos', 'windows'] },
];

/** The skill whose description is edited later (stale reason: skill). */
export const EDITED_DESCRIPTION_SKILL = 'incident-triage';
export const EDITED_DESCRIPTION = 'Triage an incident: assess impact, page the owners, keep a timeline';
/** The skill whose body is edited later (changes nothing in any prompt). */
export const EDITED_BODY_SKILL = 'release-notes';
export const EDITED_BODY = '# release-notes\n\n1. List merged pull requests since the last tag.\n2. Group them by area.\n3. Lead with user-visible changes.\n';

export const DEFAULT_MEMORY = [
  'The main project is atlas, a Go and TypeScript monorepo; run `make test` before committing.',
  'Staging deploys follow the release checklist in docs/release.md.',
  'Use pnpm, not npm, inside atlas/web.',
];
export const DEFAULT_USER = ['Name: Dana. Timezone: Europe/Berlin.', 'Prefers short answers that end with the commands to run.'];

export const WORK_CONFIG = {
  model: { default: 'claude-sonnet-4-5', provider: 'anthropic' },
  agent: { system_prompt: 'You work for the Acme platform team. Prefer Acme tooling and link tickets by id.' },
};
export const WORK_SOUL = `You are Hermes at Acme: a careful platform engineer.
Write in full sentences, keep a ticket reference in every summary.`;
export const WORK_SKILLS: readonly SkillSpec[] = [
  { category: 'ops', name: 'oncall-handoff', description: 'Write the on-call handoff note for the next engineer' },
  { category: 'ops', name: 'ticket-triage', description: 'Sort new tickets by severity and owner' },
];
export const WORK_MEMORY = ["Acme's on-call rotation changes on Mondays at 09:00.", 'Tickets live in Linear, team ACME.'];
/** The entry added later (stale reason: memory). */
export const WORK_MEMORY_ADDED = 'The staging cluster moved to eu-west-2 in November.';
export const WORK_USER = ['Works on the platform team with Dana.'];

export const ATLAS_AGENTS = `# Atlas

Go services live under services/, the web app under web/. Run \`make test\` before committing.
`;
/** The edit made later (stale reason: project-context for sessions working in atlas). */
export const ATLAS_AGENTS_EDITED = `${ATLAS_AGENTS}Database migrations go in services/db/migrations and must be reversible.
`;
export const ATLAS_API_AGENTS = `# API service

Handlers live in internal/http. Keep them thin and put logic in internal/core.
`;
export const BEACON_HERMES_MD = `---
title: Beacon
---
# Beacon

A static site generator. Build with \`npm run build\`; never edit files in dist/.
`;
export const BEACON_AGENTS = `# Beacon (old notes)

These notes predate .hermes.md and are not loaded while it exists.
`;
export const BEACON_AGENTS_EDITED = `${BEACON_AGENTS}Deploys go through the CDN purge script.
`;
