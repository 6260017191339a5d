// One error type for everything the user can fix: it names the file and says what to do, so the CLI
// prints it as one line and the language server shows it without a stack trace.

export type HermesErrorCode =
  | 'home-missing'
  | 'profile-missing'
  | 'postgres-backend'
  | 'db-missing'
  | 'db-unreadable'
  | 'db-not-sqlite'
  | 'db-schema'
  | 'db-locked'
  | 'db-readonly'
  | 'db-unfinished'
  | 'db-outside-profile'
  | 'db-no-state-meta'
  | 'session-missing'
  | 'hermes-build'
  | 'native-unavailable'
  | 'bad-input'
  | 'demo-busy';

export class HermesError extends Error {
  constructor(
    readonly code: HermesErrorCode,
    message: string,
    /** The file the problem is about, when there is one. */
    readonly file?: string,
  ) {
    super(message);
    this.name = 'HermesError';
  }
}

/** A readable one-line description of any thrown value. */
export function describeError(error: unknown): string {
  if (error instanceof Error) return error.message;
  return String(error);
}
