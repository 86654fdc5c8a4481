/**
 * Waits for `work` at most `ms`, then goes on (clearing its timer either way): closing
 * BullMQ's clients waits for Redis, and a close must not hang when Redis is gone.
 */
export async function bounded(work: Promise<unknown>, ms: number): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  await Promise.race([work.catch(() => undefined), new Promise<void>((resolve) => (timer = setTimeout(resolve, ms)))]);
  clearTimeout(timer);
}
