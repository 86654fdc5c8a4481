/**
 * A task that runs one at a time, however often it is asked for: asked while it runs, it
 * runs once more when that run ends (any number of asks in between make one run). So a
 * server sending 10,000 `notifications/tools/list_changed` is listed again twice, not
 * 10,000 times at once, and the last listing always starts after the last ask. Each ask
 * answers a promise that settles, never rejecting, when a run started after it has ended.
 *
 * @example
 * ```ts
 * const refresh = coalesced(() => listTools(client));
 * for (let i = 0; i < 10_000; i++) void refresh(); // two listings: the first, and one after it
 * await refresh(); // once a listing that started after this ask is over
 * ```
 */
export function coalesced(task: () => Promise<void>): () => Promise<void> {
  let running: Promise<void> | undefined;
  let queued: Promise<void> | undefined;
  const run = (): Promise<void> => {
    // The task reports its own failures; one that throws must not stop the next run.
    const done: Promise<void> = task()
      .catch(() => undefined)
      .then(() => {
        if (running === done) running = undefined;
      });
    running = done;
    return done;
  };
  return () => {
    if (running === undefined) return run();
    queued ??= running.then(() => {
      queued = undefined;
      return run();
    });
    return queued;
  };
}
