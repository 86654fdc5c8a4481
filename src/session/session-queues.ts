/**
 * The write queues of a `FileSessionStore`, one per session: a session's writes (appends,
 * compactions, a trusted session's first sealing, a task file, a delete) run one after
 * another, in the order asked, while different sessions' run at once. A queue is dropped once
 * it is idle, so the map does not grow with the sessions a process has written.
 */
export class SessionQueues {
  private readonly queues = new Map<string, Promise<void>>();

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
