// The fixed strings Hermes writes around the blocks it renders (HERMES-FORMATS §3–§6). Renderers
// write them and the anatomy parser looks for them, so both read them from here.

/** §3.1: the Project Context container, followed by the sections. */
export const PROJECT_CONTEXT_PREFIX =
  '# Project Context\n\nThe following project context files have been loaded and should be followed:\n\n';

/** §4: the skills index opens with this heading and lists skills between the tags. */
export const SKILLS_HEADING = '## Skills\n';
export const SKILLS_OPEN = '<available_skills>\n';
export const SKILLS_CLOSE = '</available_skills>';

/** §5: the rule above and below a memory block's header. */
export const MEMORY_RULE = '═'.repeat(46);
export const MEMORY_HEADER_LABEL = 'MEMORY (your personal notes)';
export const USER_HEADER_LABEL = 'USER PROFILE (who the user is)';

/** §6.1: the trailer lines. */
export const CONVERSATION_STARTED = 'Conversation started: ';
export const TRAILER_LABELS = ['Session ID', 'Model', 'Provider', 'Platform'] as const;

/** §6.2: the runtime environment block, always last. */
export const RUNTIME_HEADING = '# Hermes runtime environment';
export const RUNTIME_END = '<!-- End Hermes runtime environment -->';

/** §6.3 */
export const ACTIVE_PROFILE = 'Active Hermes profile: ';

/** §6.4: the plugin sections container. */
export const PLUGIN_START = '<!-- hermes-plugin-sections:start -->';
export const PLUGIN_END = '<!-- hermes-plugin-sections:end -->';
export const PLUGIN_HEADING = '## Plugin Context: ';

/** §1: the git workspace snapshot of the context tier opens with this. */
export const WORKSPACE_SNAPSHOT = 'Workspace (snapshot at session start';
