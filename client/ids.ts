// Every identifier the client shares with package.json: command ids, the view, the language and
// the URI scheme of the read-only prompt documents. No vscode import: the schema test reads it too.

export const COMMANDS = {
  refreshProfile: 'hermesLens.refreshProfile',
  refreshSession: 'hermesLens.refreshSession',
  showPrompt: 'hermesLens.showPrompt',
  diffPrompt: 'hermesLens.diffPrompt',
  showPromptSize: 'hermesLens.showPromptSize',
  reloadSessions: 'hermesLens.reloadSessions',
  showOutput: 'hermesLens.showOutput',
  restartServer: 'hermesLens.restartServer',
  showPromptAnatomy: 'hermesLens.showPromptAnatomy',
  cancelRefreshWhenFree: 'hermesLens.cancelRefreshWhenFree',
  clearSessionPrompt: 'hermesLens.clearSessionPrompt',
} as const;

export type CommandName = keyof typeof COMMANDS;

/** The activity-bar container and the tree inside it. */
export const VIEW_CONTAINER_ID = 'hermesLens';
export const SESSIONS_VIEW_ID = 'hermesLens.sessions';
/** VS Code's generated "focus this view" command. */
export const FOCUS_SESSIONS_COMMAND = `${SESSIONS_VIEW_ID}.focus`;

/** The prompt anatomy webview panel. */
export const ANATOMY_VIEW_TYPE = 'hermesLens.promptAnatomy';

/** Language id and URI scheme of the stored-prompt documents. */
export const PROMPT_LANGUAGE_ID = 'hermes-prompt';
export const PROMPT_SCHEME = 'hermes-prompt';
export const PROMPT_EXTENSION = '.hermes-prompt';

/** Context keys set by the client (used in `when` clauses of package.json). */
export const CONTEXT_KEYS = {
  /** 'starting' | 'running' | 'stopped' | 'failed' */
  serverState: 'hermesLens.serverState',
  /** true when no SQLite binding loads in the server's runtime. */
  noDriver: 'hermesLens.noDriver',
  /** true when the server reported a home-level problem (no home found …). */
  hasProblem: 'hermesLens.hasProblem',
  /** true while any refresh when free waits for a cache to expire. */
  refreshesScheduled: 'hermesLens.refreshesScheduled',
} as const;

/** The language client's id: `hermesLens.trace.server` is read by vscode-languageclient under it. */
export const CLIENT_ID = 'hermesLens';
export const CLIENT_NAME = 'Hermes Prompt Lens';

export const RESTRICTED_MODE_MESSAGE =
  "Refreshing is disabled in Restricted Mode: it writes to Hermes' state.db. Trust this workspace to enable it.";
