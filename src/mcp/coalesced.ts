/**
 * A task that runs one at a time, however often it is asked for: asked while it runs, it
 * runs once more when that run ends (any number of asks in between make one run). So a
 * server sending 10,000 `notifications/tools/list_changed` is listed again twice, not
 * 10,000 times at once, and the last listing always starts after the last notification.
 *
 * @example
 * ```ts
 * const refresh = coalesced(() => listTools(client));
 * for (let i = 0; i < 10_000; i++) refresh(); // two listings: the first, and one after it
 * ```
 */
export function coalesced(task: () => Promise<void>): () => void {
  let running = false;
  let again = false;
  const run = async (): Promise<void> => {
    running = true;
    do {
      again = false;
      // The task reports its own failures; one that throws must not stop the next run.
      await task().catch(() => undefined);
    } while (again);
    running = false;
  };
  return () => {
    if (running) again = true;
    else void run();
  };
}
