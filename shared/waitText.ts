// How long until a refresh when free is recorded, in the words every view uses (the tree's
// countdown, the confirmation, the server's messages, the CLI's progress line).

/** `45s`, `3m`, `1h 5m` (rounded up: a request is never said to come sooner than it does); `now` when due. */
export function formatWait(seconds: number): string {
  if (!(seconds > 0)) return 'now';
  if (seconds < 60) return `${Math.ceil(seconds)}s`;
  const minutes = Math.ceil(seconds / 60);
  if (minutes < 60) return `${minutes}m`;
  return `${Math.floor(minutes / 60)}h${minutes % 60 ? ` ${minutes % 60}m` : ''}`;
}
