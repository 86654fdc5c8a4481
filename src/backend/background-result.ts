import { failedTask } from '../delegation/task-result-format.js';
import type { TaskInfo } from '../delegation/task-tracker.js';
import type { RunEndEvent } from '../events/agent-event.js';
import type { LogEnding } from '../runs/run-types.js';
import type { TaskJob } from './task-job.js';

/** A background task's result as its tracker would record it (the same texts as in-process); none when it was cancelled. */
export function backgroundResult(job: TaskJob, agentName: string, ending: LogEnding, end: RunEndEvent | undefined, startedAt: number): TaskInfo | undefined {
  if (ending.kind === 'cancelled') return undefined;
  const task = job.spec.task!;
  const base = { taskId: task.taskId, agentName, description: job.description, sessionId: task.rootSessionId, parentRunId: job.parentRunId, background: true, startedAt, endedAt: Date.now() };
  const metrics = end ? { metrics: end.metrics } : {};
  if (ending.kind === 'failed') return { ...base, ...metrics, state: 'failed', result: failedTask(`the ${agentName} task failed: ${ending.message}`).content };
  if (end && !end.abnormal) return { ...base, ...metrics, state: 'done', result: end.text };
  const partial = end?.text ? `\nIts last text was:\n${end.text}` : '';
  return { ...base, ...metrics, state: 'failed', result: failedTask(`the ${agentName} task ended abnormally: ${end?.error ?? 'it ended without a result'}${partial}`).content };
}
