// What the walkthroughs of package.json (`contributes.walkthroughs`) refer to: the commands of
// their steps' `command:` links (in the description and the markdown page) and `onCommand:`
// completion events. Pure, no vscode import: the unit tests and the in-host suite both read it.

export interface WalkthroughStep {
  id: string;
  title: string;
  description: string;
  media: { markdown?: string; image?: string; altText?: string };
  completionEvents?: string[];
}

export interface Walkthrough {
  id: string;
  title: string;
  description: string;
  steps: WalkthroughStep[];
}

/** The command ids of the `command:` links in markdown (without their arguments). */
export function commandLinks(markdown: string): string[] {
  return [...markdown.matchAll(/\]\(command:([^?)\s]+)/g)].map((m) => m[1]!);
}

/** The completion events of a step of one kind (`onCommand`, `onView` …), without the prefix. */
export function completionEvents(step: WalkthroughStep, kind: string): string[] {
  return (step.completionEvents ?? []).filter((e) => e.startsWith(`${kind}:`)).map((e) => e.slice(kind.length + 1));
}

/**
 * Every command a step runs or waits for: its links (in the description, and in its markdown page
 * when `readMedia` reads it) and its `onCommand:` events.
 */
export function stepCommands(step: WalkthroughStep, readMedia?: (file: string) => string): string[] {
  const page = step.media?.markdown && readMedia ? readMedia(step.media.markdown) : '';
  return [...new Set([...commandLinks(step.description), ...commandLinks(page), ...completionEvents(step, 'onCommand')])];
}

/** Every command the walkthrough refers to, each once. */
export function walkthroughCommands(walkthrough: Walkthrough, readMedia?: (file: string) => string): string[] {
  return [...new Set(walkthrough.steps.flatMap((s) => stepCommands(s, readMedia)))].sort();
}
