// The stable-tier guidance paragraphs our prompt builder writes (demo homes and tests). They are
// the lens's own text, not Hermes': Hermes' prose changes between releases and is never re-created.
// The anatomy parser knows their headings so a demo prompt's identity ends where they begin.

export const DEFAULT_GUIDANCE: readonly string[] = [
  '# Working method\nWork in small steps you can check. Read a file before you change it, and run the narrowest test that proves the change.',
  '# Tool calls\nRun commands non-interactively and keep their output short. Independent lookups can go out together; dependent ones wait for their inputs.',
  '# Memory and skills\nKeep durable facts about the user and their machine in memory. Keep procedures in skills, and load the skill that covers a task before starting it.',
];

/** The first line of each default guidance paragraph. */
export const DEFAULT_GUIDANCE_HEADINGS: readonly string[] = DEFAULT_GUIDANCE.map((p) => p.split('\n')[0]!);
