import { formatTaskResult } from '../talent/task-result-format.js';
import type { TaskInfo } from '../talent/task-tracker.js';

/**
 * The block put in front of a prompt with the results of background tasks that finished
 * since the conversation's last turn.
 *
 * @example
 * ```ts
 * backgroundResults(engine.tasks.takeUndelivered(sessionId));
 * ```
 */
export function backgroundResults(tasks: readonly TaskInfo[]): string {
  const lines = tasks.map((t) =>
    formatTaskResult({
      description: t.description,
      agentName: t.agentName,
      taskId: t.taskId,
      status: t.state === 'done' ? 'success' : 'failure',
      content: t.result ?? '',
    }),
  );
  return ['<background_task_results>', ...lines, '</background_task_results>'].join('\n');
}
