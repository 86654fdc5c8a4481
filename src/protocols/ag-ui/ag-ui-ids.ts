/**
 * The AG-UI ids of our events' parts. Every id is derived from ids our events already carry,
 * so the same part gets the same id in every AG-UI run that shows it (a run continued after
 * an interrupt reopens a message under its old id, and the client appends to it).
 */

/** The assistant message of one step of one run (its text, and the parent of its tool calls). */
export function messageIdOf(runId: string, step: number): string {
  return `msg_${runId}_${step}`;
}

/** The reasoning message (and span) of one step of one run. */
export function reasoningIdOf(runId: string, step: number): string {
  return `reasoning_${runId}_${step}`;
}

/**
 * A tool call's usual AG-UI id. The main run's calls keep the model's id: a frontend tool's
 * result comes back as a tool message naming it. A subagent's call is prefixed with its run
 * id: two children's models may both say `call_0`, and AG-UI ids must be unique in a thread.
 * A model may also repeat an id within its run (`call_0` at every step): `ToolCallIds` gives
 * such a call `<id>~2` (the next free one) instead, and maps the client's answers back.
 */
export function toolCallIdOf(runId: string, callId: string, subagentRunId: string | undefined): string {
  return subagentRunId === undefined ? callId : `${runId}/${callId}`;
}

/** The tool message a call's result becomes. */
export function resultIdOf(toolCallId: string): string {
  return `result_${toolCallId}`;
}
