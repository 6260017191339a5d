// The words every view uses for a session whose prompt another Hermes build wrote (SessionDto.otherBuild).
// A module of its own, without imports: the anatomy webview's bundle takes it without the protocol.

export const OTHER_BUILD = 'built by another Hermes build';

/** The sentence for `otherBuild` (a phrase to follow OTHER_BUILD); undefined when there is none. */
export function otherBuildLine(otherBuild: string | null): string | undefined {
  return otherBuild ? `${OTHER_BUILD[0]!.toUpperCase()}${OTHER_BUILD.slice(1)}: ${otherBuild} (not stale)` : undefined;
}
