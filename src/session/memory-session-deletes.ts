/** Told of a conversation a store deleted, with the ids of the tasks that went with it (see `SessionStore.watchDeletes`). */
export type DeleteWatcher = (sessionId: string, taskIds: readonly string[]) => void;

/**
 * The watchers of one store's deletes (`SessionStore.watchDeletes`): each is told of every
 * conversation the store deletes, whoever asked (an engine sharing the store in this process,
 * or a call on the store itself), until it is unwatched. Held strongly until then: an engine
 * gives a relay that holds its own watcher weakly (`deletedInProcess`), so a dropped engine is
 * neither told nor kept alive, and a user's watcher is told as long as they asked.
 *
 * @example
 * ```ts
 * const watchers = new DeleteWatchers();
 * const unwatch = watchers.watch((id, taskIds) => console.log(id, taskIds));
 * watchers.tell('notes', ['task_1']);
 * unwatch();
 * ```
 */
export class DeleteWatchers {
  /** A Set of entries, not of watchers: one watcher given twice is told twice, and each unwatch removes its own. */
  private readonly watchers = new Set<{ readonly watcher: DeleteWatcher }>();

  /** Tells `watcher` of every delete from now on; the function returned stops it (calling it again does nothing). */
  watch(watcher: DeleteWatcher): () => void {
    if (typeof watcher !== 'function') throw new TypeError('watchDeletes takes a function, called with the id of each deleted conversation and of its tasks.');
    const entry = { watcher };
    this.watchers.add(entry);
    return () => void this.watchers.delete(entry);
  }

  /**
   * Tells every watcher that the conversation `sessionId` and its tasks `taskIds` were deleted.
   * A watcher that throws is passed over: the delete is done, and the others must hear of it.
   */
  tell(sessionId: string, taskIds: readonly string[]): void {
    // A copy: a watcher that unwatches (or watches) while told changes none of this round.
    for (const { watcher } of [...this.watchers]) {
      try {
        watcher(sessionId, taskIds);
      } catch {
        // Nothing thrown out of the store's delete: it has deleted, and the caller would take it for a failure.
      }
    }
  }

  /** How many watchers are told (a dropped engine's relay counts until it unwatches). */
  get size(): number {
    return this.watchers.size;
  }
}
