import type { TaskSessionInfo } from './session-store.js';
import { taskSessionInfoOf } from './task-session-info.js';

/** A task file's task info and the seal it carries (`mac`, unchecked here: `TaskSeal` checks it). */
export interface TaskFileText {
  /** The task info, its known fields only (`taskSessionInfoOf`). */
  readonly info: TaskSessionInfo;
  /** The seal the file carries, as found (absent in a file written without a key). */
  readonly mac: unknown;
}

/**
 * The task info the text of a task file (`<id>.task.json`) holds and its seal, or `undefined`
 * when it is not JSON or holds no task info: the one parse of a task file, for the seal that
 * checks it (`TaskSeal`) and for the wording of a refusal (`isOneShotTask`), so the two never
 * read one file differently.
 *
 * @example
 * ```ts
 * parsedTaskFile('{"taskId":"task_1","agentName":"beta","description":"scan","ownerSessionId":"ses_1","mac":"..."}');
 * // { info: { taskId: 'task_1', ... }, mac: '...' }
 * ```
 */
export function parsedTaskFile(text: string): TaskFileText | undefined {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return undefined;
  }
  const info = taskSessionInfoOf(value);
  return info && { info, mac: (value as { mac?: unknown }).mac };
}
