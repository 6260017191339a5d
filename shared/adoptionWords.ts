// The words every view uses for a refresh request a session took a turn without adopting, and for
// the older way offered instead (SessionDto.adoption): the server's messages, the CLI and the
// editor's tree say the same.

/** The two costs of clearing the stored prompt (what `hermes sessions repair-prompts` does). */
export const CLEAR_PROMPT_DRAWBACKS =
  'it also fires the on_session_start hooks, and an agent a running gateway holds in memory does not see it until the gateway restarts';

/** What a session that took a turn on its old prompt shows. */
export const NOT_ADOPTED = 'took a turn without adopting the refresh; this Hermes build may read another request';

/** The offer made for such a session. */
export const CLEAR_INSTEAD = `Clearing its stored prompt (the older way) makes it rebuild on its next turn, but ${CLEAR_PROMPT_DRAWBACKS}.`;
