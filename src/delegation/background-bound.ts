import { TaskRefusedError } from './task-refused-error.js';
import type { TaskTracker } from './task-tracker.js';

/**
 * Background tasks one conversation may have running at once in an engine, unless its
 * `maxBackgroundTasks` says otherwise. One model reply may hold any number of `task` calls,
 * and a background one returns at once: without a bound, a reply of thousands would start
 * thousands of children.
 */
export const DEFAULT_MAX_BACKGROUND_TASKS = 32;

/**
 * Refuses a background task when its conversation already has `max` running here (0: no
 * bound). Its message tells the model what it can do instead.
 *
 * @throws TaskRefusedError when the conversation is at its bound.
 *
 * @example
 * ```ts
 * checkBackgroundRoom(tracker, context.rootSessionId, 32); // throws when 32 are running
 * ```
 */
export function checkBackgroundRoom(tracker: TaskTracker, sessionId: string, max: number): void {
  if (max === 0 || tracker.runningBackgroundOf(sessionId) < max) return;
  throw new TaskRefusedError(
    `at most ${max} background tasks run at once in this conversation, and ${max} are running; ` +
      'wait for one to finish (its result comes in front of your next prompt) or run this task without `background`',
  );
}
