import type { PromptPrefix } from '../agent/agent-scope.js';
import type { TaskTracker } from '../delegation/task-tracker.js';
import { inEndOrder, promptResultsBlock, splitForPrompt } from './background-results.js';

/** What a prompt's prefix needs of the tracker: its conversation's waiting results and note. */
export type WaitingResults = Pick<TaskTracker, 'takeUndelivered' | 'takeDropped' | 'putBack'>;

/**
 * The background results put in front of the main agent's next prompt of `sessionId`: the
 * newest `shownAtOnce(maxResultChars)` waiting ones, and the note of those dropped unread. The
 * older ones go back to the waiting list at once, for the next prompt. A prompt that could not
 * be saved (`unsaved`) gives back what it showed, with the older ones again, all in the order
 * they finished: put in front of those, the newer would be the first the list's bound drops.
 *
 * @example
 * ```ts
 * const { text, unsaved } = backgroundPrefix(engine.tasks, 'notes', 12_000);
 * ```
 */
export function backgroundPrefix(tasks: WaitingResults, sessionId: string, maxResultChars: number): PromptPrefix {
  const finished = tasks.takeUndelivered(sessionId);
  const dropped = tasks.takeDropped(sessionId);
  const split = splitForPrompt(finished, maxResultChars);
  const { shown, waiting } = split;
  if (waiting.length > 0) tasks.putBack(sessionId, waiting, undefined);
  // The split is the block's too: the results are sorted once a prompt.
  const text = finished.length || dropped ? promptResultsBlock(split, maxResultChars, dropped) : '';
  // The older ones (taken again) before the shown: the sort keeps that order for results that
  // ended in the same millisecond.
  const unsaved = (): void => tasks.putBack(sessionId, inEndOrder([...tasks.takeUndelivered(sessionId), ...shown]), dropped);
  return { text, unsaved };
}
