import { formatTaskResult, truncate } from '../delegation/task-result-format.js';
import type { TaskInfo } from '../delegation/task-tracker.js';

/**
 * The block put in front of a prompt with the results of background tasks that finished
 * since the conversation's last turn. Each result is cut at `maxResultChars`, like a
 * foreground task's (the full text stays in the tracker).
 *
 * @example
 * ```ts
 * backgroundResults(engine.tasks.takeUndelivered(sessionId), 12_000);
 * ```
 */
export function backgroundResults(tasks: readonly TaskInfo[], maxResultChars: number): string {
  const lines = tasks.map((t) =>
    formatTaskResult({
      description: t.description,
      agentName: t.agentName,
      taskId: t.taskId,
      status: t.state === 'done' ? 'success' : 'failure',
      content: truncate(t.result ?? '', maxResultChars),
    }),
  );
  return ['<background_task_results>', ...lines, '</background_task_results>'].join('\n');
}
