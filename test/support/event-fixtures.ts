import type { AgentEvent, RunEndEvent, TaskWrapEvent } from '../../src/events/agent-event.js';
import { EMPTY_METRICS } from '../../src/events/run-metrics.js';

/** A `RunEnd` of `runId`. */
export function runEnd(runId: string, agentName = 'main', text = `${agentName} done`): RunEndEvent {
  return { type: 'RunEnd', runId, agentName, text, abnormal: false, metrics: EMPTY_METRICS, steps: 1 };
}

/** Where a wrapped event came from: the task of `parentRunId` whose child run is `runId`. */
export interface WrapFrame {
  readonly parentRunId: string;
  readonly taskId: string;
  readonly taskIndex?: number;
  /** The child run; default: the wrapped event's own run (right unless it is itself a TaskWrap). */
  readonly runId?: string;
  readonly agentName?: string;
}

/** Wraps a child's event as its parent's stream carries it (runId and agentName: the child's). */
export function wrap(event: AgentEvent, frame: WrapFrame): TaskWrapEvent {
  const agentName = frame.agentName ?? event.agentName;
  const taskIndex = frame.taskIndex ?? 1;
  return {
    type: 'TaskWrap',
    runId: frame.runId ?? event.runId,
    agentName,
    parentRunId: frame.parentRunId,
    taskId: frame.taskId,
    taskIndex,
    taskAgentName: agentName,
    taskDescription: `task ${frame.taskId}`,
    multitask: taskIndex > 1,
    event,
  };
}

/** One event of every type except `TaskWrap` (built with {@link wrap}), all of run `r1` of `main`. */
export const SAMPLE_EVENTS: readonly AgentEvent[] = [
  { type: 'RunStart', runId: 'r1', agentName: 'main', sessionId: 's1', prompt: 'hi' },
  { type: 'ContextSize', runId: 'r1', agentName: 'main', messageCount: 2, tokenCount: 9 },
  { type: 'ReasonStart', runId: 'r1', agentName: 'main', step: 1 },
  { type: 'ReasonDelta', runId: 'r1', agentName: 'main', step: 1, kind: 'text', text: 'he' },
  { type: 'ReasonEnd', runId: 'r1', agentName: 'main', step: 1, text: 'hello', toolCalls: [{ callId: 'c', name: 'read', args: { path: 'a' } }], durationMs: 3 },
  { type: 'ActionStart', runId: 'r1', agentName: 'main', step: 1, toolCalls: [{ callId: 'c', name: 'read', args: { path: 'a' } }] },
  { type: 'ToolCallStart', runId: 'r1', agentName: 'main', step: 1, callId: 'c', toolName: 'read', args: { path: 'a' } },
  { type: 'HITLPending', runId: 'r1', agentName: 'main', approvalId: 'approval_c', callId: 'c', toolName: 'read', args: { path: 'a' }, reason: 'ask' },
  { type: 'HITLDecided', runId: 'r1', agentName: 'main', approvalId: 'approval_c', callId: 'c', toolName: 'read', decision: 'approve' },
  { type: 'ToolCallEnd', runId: 'r1', agentName: 'main', step: 1, callId: 'c', toolName: 'read', text: 'content', durationMs: 1 },
  { type: 'ActionEnd', runId: 'r1', agentName: 'main', step: 1 },
  { type: 'Plan', runId: 'r1', agentName: 'main', todos: [{ id: '1', content: 'read a', status: 'completed' }] },
  runEnd('r1'),
];
