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
 * The most tool calls one step may ask for (128): a reply with more runs none of them and
 * ends the run, saying so. Defined beside the reader that stops at it (model/tool-call-cap.ts).
 */
export { MAX_TOOL_CALLS_PER_STEP } from '../model/tool-call-cap.js';
