import { trustedEmit } from '../agent/trusted-emit.js';
import type { AgentEvent } from '../events/agent-event.js';
import { EMPTY_METRICS } from '../events/run-metrics.js';
import type { ToolContext } from '../tools/tool.js';
import type { TaskRequest } from './delegation-types.js';

/**
 * Makes a task refused before it started (unknown or disabled agent, a rule, a task still
 * running) visible like any other: it counts in the parent's `metrics.tasks`, and a
 * streaming consumer gets it as a wrapped `RunStart` and an abnormal `RunEnd` (no steps, no
 * usage) carrying the reason, so a live tree shows one row per task and can close it.
 *
 * @example
 * ```ts
 * announceRefusal(context, request, taskId, 'unknown agent "ghost"');
 * ```
 */
export function announceRefusal(parent: ToolContext, request: TaskRequest, taskId: string, why: string): void {
  parent.addMetrics({ ...EMPTY_METRICS, tasks: 1 });
  if (!parent.streaming) return;
  const runId = `run_refused_${taskId}`;
  const agentName = request.agentName;
  const wrap = (event: AgentEvent): AgentEvent => ({
    type: 'TaskWrap',
    runId,
    agentName,
    parentRunId: parent.runId,
    taskId,
    taskIndex: request.index,
    taskAgentName: agentName,
    taskDescription: request.description,
    multitask: request.multitask,
    event,
  });
  const emit = trustedEmit(parent);
  emit(wrap({ type: 'RunStart', runId, agentName, sessionId: taskId, prompt: request.prompt }));
  emit(wrap({ type: 'RunEnd', runId, agentName, text: '', abnormal: true, error: why, metrics: { ...EMPTY_METRICS }, steps: 0 }));
}
