import { realpathSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { errnoOf } from '../errors/errno-of.js';

/** The queues of every `SessionQueues` of the process, by folder and session (see the class). */
const SHARED_QUEUES = new Map<string, Promise<void>>();

/**
 * The write queues of the process's `FileSessionStore`s, one per session of a folder: every
 * store's writes of a session (appends, compactions, a trusted session's first sealing, a task
 * file, an "always" grant, a delete) run one after another, in the order asked, while different
 * sessions' run at once. Shared by the stores of one folder (`scope`), not one per store: two
 * stores of one folder (two engines, each with its own) must order their writes as one store
 * does, or a grant save asked before the other's delete of the conversation, still signing
 * when the run ended, would land after the delete and leave its "always" to a new conversation
 * of the id. Stores of other folders, and stores in other processes, share no queue. The folder
 * is known by its real path (`realFolderKey`), so stores opened through different paths to it
 * (a link to the workspace or to the folder) share its queues too. A queue is dropped once it
 * is idle, so the map does not grow with the sessions a process has written.
 */
export class SessionQueues {
  private readonly queues = SHARED_QUEUES;
  /** The folder's real path, found at the first write (the folder may not exist when the store is made); kept since. */
  #real: string | undefined;

  /** @param scope - the folder the store writes (its resolved path): the queues are shared by the stores of the same real folder only. */
  constructor(private readonly scope: string) {}

  /** Runs `task` after the session's writes queued so far; its result (or failure) is the caller's, the queue goes on either way. */
  enqueue<T>(sessionId: string, task: () => Promise<T>): Promise<T> {
    return this.enqueueAll([sessionId], task);
  }

  /**
   * Runs `task` in the queues of all of `sessionIds` at once (a task file: its task's and its
   * conversation's), queued in each now, so a write asked after it in any of them waits for it.
   * Never one queue waiting on another: no two such writes can wait on each other.
   */
  enqueueAll<T>(sessionIds: readonly string[], task: () => Promise<T>): Promise<T> {
    const ids = [...new Set(sessionIds.map((id) => this.#key(id)))];
    const previous = Promise.all(ids.map((id) => this.queues.get(id)));
    const next = previous.then(task);
    // The queue holds a settled promise either way; the caller still sees the failure.
    const tail = next.then(
      () => undefined,
      () => undefined,
    );
    for (const id of ids) this.queues.set(id, tail);
    void tail.then(() => {
      for (const id of ids) if (this.queues.get(id) === tail) this.queues.delete(id);
    });
    return next;
  }

  /** Settles once the session's writes queued so far are done (never rejects). */
  async idle(sessionId: string): Promise<void> {
    await this.queues.get(this.#key(sessionId));
  }

  /** A session's queue in the shared map: its folder's, then its id (NUL is in neither). */
  #key(sessionId: string): string {
    // Found synchronously: a write asked first is queued first, whatever store asked it.
    this.#real ??= realFolderKey(this.scope);
    return `${this.#real}\0${sessionId}`;
  }
}

/**
 * The real path of `folder` (a resolved path), for a folder that may not exist yet: that of
 * its nearest existing parent, with the rest of the path under it (the store makes those
 * folders itself). A path that cannot be looked into (no permission, a link loop) stays as
 * given: its writes fail on their own, and share a queue with the stores of that same path.
 */
export function realFolderKey(folder: string): string {
  try {
    return realpathSync(folder);
  } catch (e) {
    const code = errnoOf(e);
    const parent = dirname(folder);
    if ((code !== 'ENOENT' && code !== 'ENOTDIR') || parent === folder) return folder;
    return join(realFolderKey(parent), basename(folder));
  }
}
