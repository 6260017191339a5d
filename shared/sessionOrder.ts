// The order every view lists sessions in, newest first: by last activity, then by id, so that
// "the newest session" is the same one for the extension and the language server. Pure.

export function byRecentActivity(a: { readonly id: string; readonly lastActivityAt?: number | null }, b: { readonly id: string; readonly lastActivityAt?: number | null }): number {
  return (b.lastActivityAt ?? 0) - (a.lastActivityAt ?? 0) || a.id.localeCompare(b.id);
}
