import type { ServerResponse } from 'node:http';
import type { HarnessEngine } from '../engine/harness-engine.js';
import type { RunInfo } from '../runs/run-types.js';
import { sendJson } from './http-answers.js';
import { HttpFailure } from './http-failure.js';

/** What cancelling one task needs of an engine; a custom `RunsEngine` may lack it (`404`). */
type TasksEngine = Partial<Pick<HarnessEngine, 'tasks' | 'cancelTask'>>;

/**
 * `DELETE <base>/runs/:id/tasks/:taskId`: cancels one task of the run, queued or running, with
 * the tasks under it; its siblings and the run go on (the run's model reads that the task was
 * cancelled). `202 { runId, taskId, state }`. `404` for a task this run did not start (a task
 * belongs to the run when it is of the run's conversation and started while the run went),
 * `409` for one that already ended.
 */
export async function cancelRunTask(engine: object, run: RunInfo, taskId: string, res: ServerResponse): Promise<void> {
  const { tasks, cancelTask } = engine as TasksEngine;
  if (!tasks || !cancelTask) throw new HttpFailure(404, 'this server cannot cancel single tasks');
  const task = tasks.get(taskId);
  const ofRun = task !== undefined && task.sessionId === run.sessionId && task.startedAt >= run.startedAt && (run.endedAt === undefined || task.startedAt <= run.endedAt);
  if (!ofRun) throw new HttpFailure(404, `run "${run.runId}" has no task "${taskId}"`);
  if (task.state !== 'queued' && task.state !== 'running') throw new HttpFailure(409, `task "${taskId}" already ended (${task.state}): nothing to cancel`);
  if (!cancelTask.call(engine, taskId)) throw new HttpFailure(409, `task "${taskId}" already ended: nothing to cancel`);
  sendJson(res, 202, { runId: run.runId, taskId, state: 'cancelled' });
}
