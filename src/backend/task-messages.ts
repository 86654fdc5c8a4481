import type { TaskInfo } from '../delegation/task-tracker.js';

/**
 * What travels on the tasks channel: a task's new snapshot with the instance that runs it,
 * a cancel for the engine running a task, or tasks every engine forgets (their conversation
 * was deleted).
 *
 * @internal
 */
export type TaskMessage =
  | { readonly op: 'put'; readonly info: TaskInfo; readonly owner?: string }
  | { readonly op: 'cancel'; readonly taskId: string }
  | { readonly op: 'forget'; readonly taskIds: readonly string[] };

/**
 * The message that tells every engine where a task stands (`owner`: the instance running it).
 *
 * @internal
 */
export function putTaskMessage(info: TaskInfo, owner: string | undefined): string {
  const message: TaskMessage = { op: 'put', info, owner };
  return JSON.stringify(message);
}

/**
 * The message that asks the engine running (or holding queued) a task to cancel it.
 *
 * @internal
 */
export function cancelTaskMessage(taskId: string): string {
  const message: TaskMessage = { op: 'cancel', taskId };
  return JSON.stringify(message);
}

/**
 * The message that has every engine forget the copies it keeps of these tasks (their
 * conversation was deleted, with their records: see `RedisSessionStore.delete`).
 *
 * @internal
 */
export function forgetTasksMessage(taskIds: readonly string[]): string {
  const message: TaskMessage = { op: 'forget', taskIds };
  return JSON.stringify(message);
}
