/** Told of a conversation a `MemorySessionStore` deleted, with the ids of the tasks that went with it (see {@link watchDeletes}). */
export type DeleteWatcher = (sessionId: string, taskIds: readonly string[]) => void;

/** The watchers of each store, held weakly: an engine dropped (closed, no longer used) is no longer told, and not kept alive. */
const WATCHERS = new WeakMap<object, Set<WeakRef<DeleteWatcher>>>();

/**
 * Tells `watcher` of every conversation `store` deletes from now on, whoever asked (another
 * engine sharing the store in this process, or a call on the store itself): an engine stops
 * its background tasks of it and forgets their results (`deletedInProcess`). Only a
 * `MemorySessionStore` tells (its deletes are in this process; engines sharing a file store
 * read the store instead: `deletedElsewhere`). The watcher is held weakly: the caller keeps it.
 */
export function watchDeletes(store: object, watcher: DeleteWatcher): void {
  let watchers = WATCHERS.get(store);
  if (!watchers) WATCHERS.set(store, (watchers = new Set()));
  watchers.add(new WeakRef(watcher));
}

/** Tells the watchers of `store` that it deleted the conversation `sessionId` and its tasks `taskIds` (a task session's delete concerns none of them). */
export function tellDeleted(store: object, sessionId: string, taskIds: readonly string[]): void {
  const watchers = WATCHERS.get(store);
  if (!watchers) return;
  for (const ref of watchers) {
    const watcher = ref.deref();
    if (watcher) watcher(sessionId, taskIds);
    else watchers.delete(ref);
  }
}
