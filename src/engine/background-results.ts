import { MULTITASK_ENTRY_FLOOR, MULTITASK_RESULT_SHARES, shareResultBudget } from '../delegation/multitask-budget.js';
import { formatTaskResult, type TaskResultFields } from '../delegation/task-result-format.js';
import type { TaskInfo } from '../delegation/task-tracker.js';
import { NAMED_DROPS, type DroppedResults } from '../delegation/undelivered-results.js';
import { RESULTS_BLOCK_CLOSE, RESULTS_BLOCK_OPEN } from '../session/compaction/prompt-results.js';

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

/** The results taken for one prompt: those it shows, and the older ones, which wait for a later prompt. */
export interface PromptResults {
  /** The newest {@link shownAtOnce}, oldest first. */
  readonly shown: TaskInfo[];
  /** The others, oldest first: the caller gives them back to the waiting list (`TaskTracker.putBack`). */
  readonly waiting: TaskInfo[];
}

/**
 * Splits the results taken for a prompt into the newest {@link shownAtOnce}, which it shows,
 * and the older ones, which wait for the next prompt (and the next, the newest first each
 * time). Ordered by when they finished (`endedAt`): a list given back (a prompt that could not
 * be saved, or these older ones) may hold them out of order, a shared one (Redis) too.
 *
 * @example
 * ```ts
 * const { shown, waiting } = splitForPrompt(engine.tasks.takeUndelivered(sessionId), 100); // 4 shown
 * ```
 */
export function splitForPrompt(tasks: readonly TaskInfo[], maxResultChars: number): PromptResults {
  const byEnd = inEndOrder(tasks);
  const older = Math.max(0, byEnd.length - shownAtOnce(maxResultChars));
  return { shown: byEnd.slice(older), waiting: byEnd.slice(0, older) };
}

/**
 * `tasks` in the order they finished (`endedAt`), the oldest first: the order a waiting list
 * keeps, so that its bound drops the oldest. A stable sort: results that ended in the same
 * millisecond keep their order.
 */
export function inEndOrder(tasks: readonly TaskInfo[]): TaskInfo[] {
  return [...tasks].sort((a, b) => (a.endedAt ?? 0) - (b.endedAt ?? 0));
}

/**
 * The block put in front of a prompt with the results of background tasks that finished
 * since the conversation's last turn. Each result is cut at `maxResultChars`, like a
 * foreground task's (the full text stays in the tracker), and together they share the
 * budget of a `multitask` result (`shareResultBudget`): up to a thousand results may wait
 * for one prompt, which would otherwise be a thousand times `maxResultChars`. Past
 * {@link shownAtOnce} results, the newest are shown ({@link splitForPrompt}) and one line
 * says how many older ones wait for a later prompt and names the newest of those: the
 * caller gives them back to the waiting list. When results of the conversation were dropped
 * unread (too many waited, all conversations together), a note says how many and names the
 * first, so the model knows they existed. A block larger than the room the model's context
 * window leaves the turn is cut further by the compaction before the turn's first request
 * (`clipPromptResults`, which reads this format), with a note saying by how much.
 *
 * @example
 * ```ts
 * backgroundResults(engine.tasks.takeUndelivered(sessionId), 12_000, engine.tasks.takeDropped(sessionId));
 * ```
 */
export function backgroundResults(tasks: readonly TaskInfo[], maxResultChars: number, dropped?: DroppedResults): string {
  return promptResultsBlock(splitForPrompt(tasks, maxResultChars), maxResultChars, dropped);
}

/**
 * {@link backgroundResults} of results already split ({@link splitForPrompt}): a caller that needs the split too sorts once.
 * `lost`: results of tasks whose engine stopped before delivering them (`lostBackgroundResults`), put first (they ended before any waiting here).
 */
export function promptResultsBlock({ shown, waiting }: PromptResults, maxResultChars: number, dropped?: DroppedResults, lost: readonly TaskResultFields[] = []): string {
  const entries = shown.map(
    (t): TaskResultFields => ({
      description: t.description,
      agentName: t.agentName,
      taskId: t.taskId,
      status: t.state === 'done' ? 'success' : 'failure',
      content: t.result ?? '',
    }),
  );
  const lines = shareResultBudget([...lost, ...entries], maxResultChars).map(formatTaskResult);
  if (waiting.length > 0) lines.push(waitingNote(waiting, shown.length));
  if (dropped) {
    const more = dropped.count > dropped.taskIds.length ? ' and others' : '';
    const their = dropped.count === 1 ? 'result was' : 'results were';
    lines.push(`(${dropped.count} background task ${their} dropped unread because too many results were waiting: ${dropped.taskIds.join(', ')}${more}. Run them again if you need them.)`);
  }
  return [RESULTS_BLOCK_OPEN, ...lines, RESULTS_BLOCK_CLOSE].join('\n');
}

/** The line in place of the older results a prompt does not show: how many, the newest few, and that they come later. */
function waitingNote(waiting: readonly TaskInfo[], shown: number): string {
  const named = waiting.slice(-NAMED_DROPS).reverse();
  const more = waiting.length > named.length ? ', and others' : '';
  const [their, they] = waiting.length === 1 ? ['result is', 'It'] : ['results are', 'They'];
  return (
    `(${waiting.length} older background task ${their} waiting, to keep this prompt short; the newest of them: ` +
    `${named.map((t) => `${t.taskId} (${t.agentName})`).join(', ')}${more}. ${they} will come with a later prompt, ` +
    `up to ${shown} a prompt, the newest first.)`
  );
}
