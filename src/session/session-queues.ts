/** The queues of every `SessionQueues` of the process (see the class). */
const SHARED_QUEUES = new Map<string, Promise<void>>();

/**
 * The write queues of the process's `FileSessionStore`s, by session id: every store's writes
 * of a session (appends, compactions, a trusted session's first sealing, a task file, an
 * "always" grant, a delete) run one after another, in the order asked, while different
 * sessions' run at once. Shared by every store of the process, not one per store: two stores
 * of one folder (two engines, each with its own) must order their writes as one store does,
 * or a grant save asked before the other's delete of the conversation, still signing when
 * the run ended, would land after the delete and leave its "always" to a new conversation of
 * the id. Keyed by the id alone (a store does not name its folder here): stores of other
 * folders writing a session of the same id only wait on each other. Stores in other
 * processes share no queue. A queue is dropped once it is idle, so the map does not grow with
 * the sessions a process has written.
 */
export class SessionQueues {
  private readonly queues = SHARED_QUEUES;

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
    const ids = [...new Set(sessionIds)];
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
    await this.queues.get(sessionId);
  }
}
