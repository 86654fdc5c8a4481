import type { PromptPrefix } from '../agent/agent-scope.js';
import { lostBackgroundResults } from '../delegation/lost-background.js';
import type { TaskResultFields } from '../delegation/task-result-format.js';
import type { TaskTracker } from '../delegation/task-tracker.js';
import type { ChatMessage } from '../model/chat-message.js';
import type { MaybePromise, SessionStore } from '../session/session-store.js';
import { inEndOrder, promptResultsBlock, splitForPrompt } from './background-results.js';

/** What a prompt's prefix needs of the tracker: its conversation's waiting results and note. */
export type WaitingResults = Pick<TaskTracker, 'takeUndelivered' | 'takeDropped' | 'putBack'>;

/**
 * The background results put in front of the main agent's next prompt of `sessionId`: the
 * newest `shownAtOnce(maxResultChars)` waiting ones, and the note of those dropped unread. The
 * older ones go back to the waiting list at once, for the next prompt. A prompt that could not
 * be saved (`unsaved`) gives back what it showed, with the older ones again, all in the order
 * they finished: put in front of those, the newer would be the first the list's bound drops.
 * `lost`: results of tasks whose engine stopped before delivering them, shown first, but for
 * those whose result waits here after all (nothing of them is given back: the history still
 * has them unreported).
 *
 * @example
 * ```ts
 * const { text, unsaved } = backgroundPrefix(engine.tasks, 'notes', 12_000);
 * ```
 */
export function backgroundPrefix(tasks: WaitingResults, sessionId: string, maxResultChars: number, lost: readonly TaskResultFields[] = []): PromptPrefix {
  const finished = tasks.takeUndelivered(sessionId);
  const dropped = tasks.takeDropped(sessionId);
  const delivered = new Set([...finished.map((t) => t.taskId), ...(dropped?.taskIds ?? [])]);
  const told = lost.filter((r) => !delivered.has(r.taskId));
  const split = splitForPrompt(finished, maxResultChars);
  const { shown, waiting } = split;
  if (waiting.length > 0) tasks.putBack(sessionId, waiting, undefined);
  // The split is the block's too: the results are sorted once a prompt.
  const text = finished.length || dropped || told.length ? promptResultsBlock(split, maxResultChars, dropped, told) : '';
  // The older ones (taken again) before the shown: the sort keeps that order for results that
  // ended in the same millisecond.
  const unsaved = (): void => tasks.putBack(sessionId, inEndOrder([...tasks.takeUndelivered(sessionId), ...shown]), dropped);
  return { text, unsaved };
}

/**
 * The engine's prefix of a conversation's prompt: {@link backgroundPrefix}, with the results of
 * its background tasks that an engine stopped before delivering, found in `history` and read
 * from their sessions (`lostBackgroundResults`, through `store`). Synchronous when there are
 * none; else the waiting results are taken once those are read.
 *
 * @example
 * ```ts
 * const prefix = await conversationPrefix(engine.tasks, 'notes', history, 12_000, engine.sessions);
 * ```
 */
export function conversationPrefix(
  tasks: WaitingResults & Pick<TaskTracker, 'get'>,
  sessionId: string,
  history: readonly ChatMessage[],
  maxResultChars: number,
  store: Pick<SessionStore, 'load' | 'loadTaskInfo'>,
): MaybePromise<PromptPrefix> {
  const lost = lostBackgroundResults(history, sessionId, tasks, store);
  if (!(lost instanceof Promise)) return backgroundPrefix(tasks, sessionId, maxResultChars, lost);
  return lost.then((read) => backgroundPrefix(tasks, sessionId, maxResultChars, read));
}
