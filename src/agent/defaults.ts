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
