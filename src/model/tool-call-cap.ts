/**
 * The most tool calls one step may ask for. Models ask for a few at a time (parallel tool
 * calls); a reply with more is a model gone wrong, or one made to flood: each call may ask
 * the user for approval, and each result is sent back to the model. Such a step runs none
 * of them and ends the run, saying so. `OpenAIChatModel` stops reading a reply (and aborts
 * its request) as soon as the call after the last allowed one appears, so a flood is never
 * held whole.
 *
 * Defined in the model layer, which reads replies; `agent/defaults.ts` re-exports it.
 */
export const MAX_TOOL_CALLS_PER_STEP = 128;
