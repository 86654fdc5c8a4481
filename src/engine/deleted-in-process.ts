import { DeletedConversationError } from '../session/deleted-conversation-error.js';
import type { DeleteWatcher } from '../session/memory-session-deletes.js';
import type { SessionStore } from '../session/session-store.js';
import type { DeletedElsewhere } from './deleted-elsewhere.js';

/** What {@link deletedInProcess} gives the engine's store view. */
export interface DeletedInProcess {
  /** Checks the view's claims and writes (see {@link deletedInProcess}). */
  readonly guard: DeletedElsewhere;
  /** What the store tells of each delete; held here, by the engine's view: the store holds only a relay that holds it weakly (a dropped engine is no longer told, nor kept alive). */
  readonly told: DeleteWatcher;
  /** Runs this engine's own delete of `sessionId` (`remove`: the store's), which it is not told of: it stopped and forgot first. */
  own(sessionId: string, remove: () => void | Promise<void>): void | Promise<void>;
}

/**
 * Tells the engine of a conversation deleted by another engine sharing its store in this
 * process (a `MemorySessionStore`, or any store with `watchDeletes`), or by a call on the
 * store itself: such a delete stopped none of this engine's background tasks and forgot none
 * of their waiting results, which would reach a new conversation of the id. The store tells
 * each delete as it makes it (`SessionStore.watchDeletes`), with the conversation's tasks:
 * nothing is guessed from task info, which the memory store drops past its bounds (engines
 * sharing a `FileSessionStore` folder read the store instead: `deletedElsewhere`). Told, the
 * engine forgets the conversation at once (its waiting results, its "always" approvals),
 * stops its background tasks of it (`stopTasks`), and forgets again once they have settled
 * (a result handed over meanwhile).
 * Until then a run of the id waits at its claim, and a write of one of those tasks (a
 * stopped run closing its turn) is refused with a `DeletedConversationError`: its transcript
 * would come back as a conversation of its own.
 *
 * The store is given a relay holding `told` weakly, unwatched once the engine is collected
 * (or at the first delete after): a store keeps what it watches until unwatched, and an
 * engine dropped without `close()` must be neither told nor kept alive by it.
 *
 * `undefined` for a store without `watchDeletes`: it tells no deletes.
 *
 * @example
 * ```ts
 * const inProcess = deletedInProcess(store, (id) => tasks.cancelAll({ backgroundOnly: true, sessionId: id }), forget);
 * ```
 */
export function deletedInProcess(
  store: SessionStore,
  stopTasks: (sessionId: string) => Promise<void>,
  forget: (sessionId: string) => void,
): DeletedInProcess | undefined {
  const watch = store.watchDeletes;
  if (typeof watch !== 'function') return undefined;
  /** The stops under way, by conversation: its next claim waits for its own. */
  const stopping = new Map<string, Promise<void>>();
  /** The tasks of those conversations, each with its conversation: their writes are refused meanwhile. */
  const stoppingTasks = new Map<string, string>();
  /** The conversations this engine is deleting itself (it stopped and forgot them first). */
  const deleting = new Set<string>();
  const told: DeleteWatcher = (sessionId, taskIds) => {
    if (deleting.has(sessionId)) return;
    for (const taskId of taskIds) stoppingTasks.set(taskId, sessionId);
    forget(sessionId);
    // Stopped now, not a tick later; nothing thrown out of here (the store's delete calls this).
    let stopped: Promise<void>;
    try {
      stopped = stopTasks(sessionId).then(
        () => forget(sessionId),
        () => forget(sessionId),
      );
    } catch {
      stopped = Promise.resolve();
    }
    stopping.set(sessionId, stopped);
    void stopped.then(() => {
      if (stopping.get(sessionId) !== stopped) return;
      stopping.delete(sessionId);
      for (const taskId of taskIds) if (stoppingTasks.get(taskId) === sessionId) stoppingTasks.delete(taskId);
    });
  };
  watchWeakly(told, (relay) => watch.call(store, relay));
  return {
    told,
    guard: {
      // Synchronous when nothing is being stopped: runs on a memory store stay synchronous.
      claimed: (sessionId) => stopping.get(sessionId),
      beforeWrite(sessionId) {
        const conversation = stoppingTasks.get(sessionId);
        if (conversation !== undefined) throw new DeletedConversationError(sessionId, conversation, 'task-write');
      },
    },
    own(sessionId, remove) {
      deleting.add(sessionId);
      let removed: void | Promise<void>;
      try {
        removed = remove();
      } catch (e) {
        deleting.delete(sessionId);
        throw e;
      }
      // A store that deletes asynchronously tells when its delete is done, not as it starts.
      if (!(removed instanceof Promise)) return void deleting.delete(sessionId);
      return removed.finally(() => deleting.delete(sessionId));
    },
  };
}

/** Unwatches the store once an engine's watcher is collected; never throws (a finalizer's throw would be uncaught). */
const UNWATCH = new FinalizationRegistry<() => void>((unwatch) => quietly(unwatch));

/**
 * Gives the store (`watch`) a relay that holds `watcher` weakly: what the store keeps is the
 * relay alone. Once `watcher` is collected, the relay unwatches (its finalizer, or the first
 * delete told after), so the store forgets it too.
 */
function watchWeakly(watcher: DeleteWatcher, watch: (relay: DeleteWatcher) => () => void): void {
  const held = new WeakRef(watcher);
  let unwatch: (() => void) | undefined;
  const relay: DeleteWatcher = (sessionId, taskIds) => {
    const live = held.deref();
    if (live) live(sessionId, taskIds);
    else if (unwatch) quietly(unwatch);
  };
  const stop = watch(relay);
  // A custom store's answer is checked: a non-function is no way to unwatch, not a crash later.
  if (typeof stop !== 'function') return;
  unwatch = stop;
  UNWATCH.register(watcher, stop);
}

/** Calls `f`, passing over what it throws. */
function quietly(f: () => void): void {
  try {
    f();
  } catch {
    // A store whose unwatch fails keeps a relay that tells nothing: harmless.
  }
}
