import { MULTITASK_ENTRY_FLOOR, MULTITASK_RESULT_SHARES, shareResultBudget } from '../delegation/multitask-budget.js';
import { formatTaskResult, type TaskResultFields } from '../delegation/task-result-format.js';
import type { TaskInfo } from '../delegation/task-tracker.js';
import { NAMED_DROPS, type DroppedResults } from '../delegation/undelivered-results.js';

/**
 * The most background results one prompt shows: as many as keep their floor
 * (`MULTITASK_ENTRY_FLOOR`, or `maxResultChars` when less) each within the shared budget
 * (`MULTITASK_RESULT_SHARES` × `maxResultChars`): 480 by default. Past it, the floor alone
 * would outgrow the budget (1,000 results at 100 characters are 100,000).
 *
 * @example
 * ```ts
 * shownAtOnce(12_000); // 480
 * ```
 */
export function shownAtOnce(maxResultChars: number): number {
  const floor = Math.min(MULTITASK_ENTRY_FLOOR, maxResultChars);
  return Math.max(1, Math.floor((MULTITASK_RESULT_SHARES * maxResultChars) / floor));
}

/**
 * The block put in front of a prompt with the results of background tasks that finished
 * since the conversation's last turn. Each result is cut at `maxResultChars`, like a
 * foreground task's (the full text stays in the tracker), and together they share the
 * budget of a `multitask` result (`shareResultBudget`): up to a thousand results may wait
 * for one prompt, which would otherwise be a thousand times `maxResultChars`. Past
 * {@link shownAtOnce} results, the newest are shown and one line says how many older ones
 * are not, names the newest of those, and how to have one again (resume its task: its
 * session keeps its answer). When results of the conversation were dropped unread (too many
 * waited, all conversations together), a note says how many and names the first, so the
 * model knows they existed.
 *
 * @example
 * ```ts
 * backgroundResults(engine.tasks.takeUndelivered(sessionId), 12_000, engine.tasks.takeDropped(sessionId));
 * ```
 */
export function backgroundResults(tasks: readonly TaskInfo[], maxResultChars: number, dropped?: DroppedResults): string {
  // Oldest first (the order they finished in): the newest are the last.
  const unshown = Math.max(0, tasks.length - shownAtOnce(maxResultChars));
  const entries = tasks.slice(unshown).map(
    (t): TaskResultFields => ({
      description: t.description,
      agentName: t.agentName,
      taskId: t.taskId,
      status: t.state === 'done' ? 'success' : 'failure',
      content: t.result ?? '',
    }),
  );
  const lines = shareResultBudget(entries, maxResultChars).map(formatTaskResult);
  if (unshown > 0) lines.push(unshownNote(tasks.slice(0, unshown)));
  if (dropped) {
    const more = dropped.count > dropped.taskIds.length ? ' and others' : '';
    const their = dropped.count === 1 ? 'result was' : 'results were';
    lines.push(`(${dropped.count} background task ${their} dropped unread because too many results were waiting: ${dropped.taskIds.join(', ')}${more}. Run them again if you need them.)`);
  }
  return ['<background_task_results>', ...lines, '</background_task_results>'].join('\n');
}

/** The line in place of the older results a prompt does not show: how many, the newest few, and how to read one. */
function unshownNote(unshown: readonly TaskInfo[]): string {
  const named = unshown.slice(-NAMED_DROPS).reverse();
  const more = unshown.length > named.length ? ', and others' : '';
  const their = unshown.length === 1 ? 'result is' : 'results are';
  return (
    `(${unshown.length} older background task ${their} not shown, to keep this prompt short; the newest of them: ` +
    `${named.map((t) => `${t.taskId} (${t.agentName})`).join(', ')}${more}. Each task has finished and keeps its answer: ` +
    'to read one, resume it with `task` (its `task_id` and `agent_name`) and ask for its answer.)'
  );
}
