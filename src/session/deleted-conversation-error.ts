import { RxHarnessError } from '../errors/rxharness-error.js';

/**
 * Thrown by `saveTaskInfo` of the file and memory stores for a task whose conversation (`ownerSessionId`)
 * was deleted, the save asked after the delete and before anything wrote the conversation
 * again: kept, the task file would outlive its conversation (a task still running when its
 * conversation was deleted through the store, not through the engine, which stops them
 * first). Nothing was written; the task does not start.
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
   * @param taskId - the task whose save was refused.
   * @param conversation - its deleted conversation.
   */
  constructor(
    readonly taskId: string,
    readonly conversation: string,
  ) {
    super(
      `Refusing to save task "${taskId}": its conversation "${conversation}" was deleted before the save was asked, and the task ` +
        'would outlive it. Nothing was written. Start the task from a run of the conversation (a new run writes it anew first).',
    );
  }
}
