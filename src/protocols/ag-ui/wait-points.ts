import type { Interrupt } from '@ag-ui/core';
import type { AgentEvent } from '../../events/agent-event.js';
import { toolCallIdOf } from './ag-ui-ids.js';
import type { AgUiRunState } from './waiting-threads.js';

/** The answer an approval interrupt expects (its `resume` entry's `payload`). */
export const APPROVAL_RESPONSE_SCHEMA = {
  type: 'object',
  properties: {
    decision: { enum: ['approve', 'reject', 'always'], description: '`always` approves this call and later ones of the same tool on the same subject in this thread' },
    comment: { type: 'string', description: 'A note for the model; with a rejection, say what to do instead' },
  },
  required: ['decision'],
} as const;

/** Where the run starts waiting for the client: an approval (an interrupt), or a frontend tool call. */
export type WaitPoint = { readonly interrupt: Interrupt } | { readonly callId: string };

/**
 * Notes what the event tells about the client's part (a frontend tool call the model asked
 * for) and says whether the run now waits for the client: an approval anywhere in the tree
 * (`HITLPending`), or the main run starting a frontend tool call whose result has not come.
 */
export function waitPointOf(event: AgentEvent, state: AgUiRunState): WaitPoint | undefined {
  let inner = event;
  let sub: string | undefined;
  while (inner.type === 'TaskWrap') {
    sub = inner.runId;
    inner = inner.event;
  }
  if (inner.type === 'HITLPending') {
    const interrupt: Interrupt = {
      id: inner.approvalId,
      reason: 'tool_approval',
      message: `${inner.agentName} wants to run ${inner.toolName}: ${inner.reason}`,
      toolCallId: toolCallIdOf(inner.runId, inner.callId, sub),
      ...(sub === undefined ? {} : { subagentRunId: sub }),
      responseSchema: APPROVAL_RESPONSE_SCHEMA,
      metadata: { toolName: inner.toolName, args: inner.args, agentName: inner.agentName },
    };
    return { interrupt };
  }
  if (sub !== undefined) return undefined;
  if (inner.type === 'ReasonEnd') {
    for (const call of inner.toolCalls) if (state.frontendTools.has(call.name)) state.calls.expect(call.callId);
    return undefined;
  }
  if (inner.type === 'ToolCallStart' && state.frontendTools.has(inner.toolName) && !state.calls.answered(inner.callId)) {
    return { callId: inner.callId };
  }
  return undefined;
}
