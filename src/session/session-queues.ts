/**
 * The write queues of a `FileSessionStore`, one per session: a session's writes (appends,
 * compactions, a trusted session's first sealing) run one after another, in the order asked,
 * while different sessions' run at once. A queue is dropped once it is idle, so the map does
 * not grow with the sessions a process has written.
 */
export class SessionQueues {
  private readonly queues = new Map<string, Promise<void>>();

  /** Runs `task` after the session's writes queued so far; its result (or failure) is the caller's, the queue goes on either way. */
  enqueue<T>(sessionId: string, task: () => Promise<T>): Promise<T> {
    const previous = this.queues.get(sessionId) ?? Promise.resolve();
    const next = previous.then(task);
    // The queue holds a settled promise either way; the caller still sees the failure.
    const tail = next.then(
      () => undefined,
      () => undefined,
    );
    this.queues.set(sessionId, tail);
    void tail.then(() => {
      if (this.queues.get(sessionId) === tail) this.queues.delete(sessionId);
    });
    return next;
  }

  /** Settles once the session's writes queued so far are done (never rejects). */
  async idle(sessionId: string): Promise<void> {
    await this.queues.get(sessionId);
  }
}
