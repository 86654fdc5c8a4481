/**
 * The summariser's instructions when the agent has none of its own: a plain `ReActAgent`.
 * The engine's agents use the `compaction` agent's prompt (src/subagent/builtin/compaction.md,
 * or a definition of that name that overrides it).
 */
export const FALLBACK_COMPACTION_PROMPT =
  'You summarise a conversation between a user and an AI assistant that uses tools, so the assistant can continue it ' +
  'without the original messages. Keep the user\'s requests and constraints, decisions made, facts found (file paths, ' +
  'names, numbers, errors), what was done and what is still open. Be concise and concrete; write only the summary.';

/** What the summariser is asked, in front of the transcript. */
export const SUMMARY_REQUEST = 'Summarise the following conversation so it can be continued from your summary alone.';
