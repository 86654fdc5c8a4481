import { RxHarnessError } from '../errors/rxharness-error.js';

/**
 * Refuses a task whose conversation (`ownerSessionId`) was deleted: kept, the task would
 * outlive its conversation, and a new conversation of the id would own it. Nothing was written.
 *
 * - `'task-save'` (the default): `saveTaskInfo` of the file and memory stores, for a save asked
 *   after the conversation's delete and before anything wrote the conversation again (a task
 *   still starting when its conversation was deleted through the store, not through the
 *   engine, which stops them first). The task does not start.
 * - `'task-write'`: a background task's write of its transcript, refused by its engine once
 *   its conversation was deleted by another engine sharing the store, or through the store
 *   itself (see `deletedElsewhere`, `deletedInProcess`). The task fails, and its result is dropped.
 *
 * @example
 * ```ts
 * await store.delete('notes');
 * await store.saveTaskInfo({ taskId: 't1', agentName: 'beta', description: 'look', ownerSessionId: 'notes' }); // rejects
 * ```
 */
export class DeletedConversationError extends RxHarnessError {
  /** The code of these errors. */
  static override readonly code = 'DELETED_CONVERSATION';
  /** Always `'DeletedConversationError'`, to recognise the error without `instanceof`. */
  override readonly name = 'DeletedConversationError';

  /**
   * @param taskId - the task refused.
   * @param conversation - its deleted conversation.
   * @param refused - what was refused: the task's info save (default), or a background task's write of its transcript.
   */
  constructor(
    readonly taskId: string,
    readonly conversation: string,
    readonly refused: 'task-save' | 'task-write' = 'task-save',
  ) {
    super(refused === 'task-save' ? saveRefused(taskId, conversation) : writeRefused(taskId, conversation));
  }
}

function saveRefused(taskId: string, conversation: string): string {
  return (
    `Refusing to save task "${taskId}": its conversation "${conversation}" was deleted before the save was asked, and the task ` +
    'would outlive it. Nothing was written. Start the task from a run of the conversation (a new run writes it anew first).'
  );
}

function writeRefused(taskId: string, conversation: string): string {
  return (
    `Background task "${taskId}" stopped: its conversation "${conversation}" was deleted while it ran (by another engine ` +
    'sharing the session store, or through the store itself), so its transcript was not written back and its result is ' +
    'dropped. Nothing is left to clean up; ' +
    'to do the work again, ask for it in a run of the conversation (a new conversation of the id starts clean).'
  );
}
