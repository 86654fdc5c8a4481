import type { Interrupt } from '@ag-ui/core';
import type { AgentEvent } from '../../events/agent-event.js';
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

/**
 * Says whether the event makes the run wait for the client with an approval (`HITLPending`,
 * anywhere in the tree: an interrupt), and notes what it tells about the main run's calls to
 * frontend tools: the model has asked for a call (its step's `ReasonEnd`), or the call has ended.
 * (A frontend call is left to the client once its tool has started: `FrontendCalls.ready`.)
 */
export function waitPointOf(event: AgentEvent, state: AgUiRunState): Interrupt | undefined {
  let inner = event;
  let sub: string | undefined;
  while (inner.type === 'TaskWrap') {
    sub = inner.runId;
    inner = inner.event;
  }
  if (inner.type === 'HITLPending') {
    return {
      id: inner.approvalId,
      reason: 'tool_approval',
      message: `${inner.agentName} wants to run ${inner.toolName}: ${inner.reason}`,
      toolCallId: state.mapper.toolCallIdOf(inner.runId, inner.callId, sub),
      ...(sub === undefined ? {} : { subagentRunId: sub }),
      responseSchema: APPROVAL_RESPONSE_SCHEMA,
      metadata: { toolName: inner.toolName, args: inner.args, agentName: inner.agentName },
    };
  }
  if (sub !== undefined) return undefined;
  if (inner.type === 'ReasonEnd') {
    for (const call of inner.toolCalls) if (state.frontendTools.has(call.name)) state.calls.announced(call.callId);
  } else if (inner.type === 'ToolCallEnd' && state.frontendTools.has(inner.toolName)) {
    state.calls.ended(inner.callId);
  }
  return undefined;
}
