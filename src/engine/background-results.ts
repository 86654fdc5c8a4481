import { shareResultBudget } from '../delegation/multitask-budget.js';
import { formatTaskResult, type TaskResultFields } from '../delegation/task-result-format.js';
import type { TaskInfo } from '../delegation/task-tracker.js';
import type { DroppedResults } from '../delegation/undelivered-results.js';

/**
 * The block put in front of a prompt with the results of background tasks that finished
 * since the conversation's last turn. Each result is cut at `maxResultChars`, like a
 * foreground task's (the full text stays in the tracker), and together they share the
 * budget of a `multitask` result (`shareResultBudget`): up to a thousand results may wait
 * for one prompt, which would otherwise be a thousand times `maxResultChars`. When results
 * of the conversation were dropped unread (too many waited, all conversations together), a
 * note says how many and names the first, so the model knows they existed.
 *
 * @example
 * ```ts
 * backgroundResults(engine.tasks.takeUndelivered(sessionId), 12_000, engine.tasks.takeDropped(sessionId));
 * ```
 */
export function backgroundResults(tasks: readonly TaskInfo[], maxResultChars: number, dropped?: DroppedResults): string {
  const entries = tasks.map(
    (t): TaskResultFields => ({
      description: t.description,
      agentName: t.agentName,
      taskId: t.taskId,
      status: t.state === 'done' ? 'success' : 'failure',
      content: t.result ?? '',
    }),
  );
  const lines = shareResultBudget(entries, maxResultChars).map(formatTaskResult);
  if (dropped) {
    const more = dropped.count > dropped.taskIds.length ? ' and others' : '';
    const their = dropped.count === 1 ? 'result was' : 'results were';
    lines.push(`(${dropped.count} background task ${their} dropped unread because too many results were waiting: ${dropped.taskIds.join(', ')}${more}. Run them again if you need them.)`);
  }
  return ['<background_task_results>', ...lines, '</background_task_results>'].join('\n');
}
