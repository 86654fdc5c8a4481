/**
 * The defaults every layer shares, written once. The engine and a plain `ReActAgent` apply
 * the same ones.
 *
 * @module
 */

/** ReAct steps per run. */
export const DEFAULT_MAX_STEPS = 30;

/** How long one tool call may run. */
export const DEFAULT_TOOL_TIMEOUT_MS = 10 * 60_000;

/** Delegation depth: children cannot delegate. */
export const DEFAULT_MAX_DEPTH = 1;

/**
 * The most tool calls one step may ask for. Models ask for a few at a time (parallel tool
 * calls); a reply with more is a model gone wrong, or one made to flood: each call may ask
 * the user for approval, and each result is sent back to the model. Such a step runs none
 * of them and ends the run, saying so.
 */
export const MAX_TOOL_CALLS_PER_STEP = 128;
