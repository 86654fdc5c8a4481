/**
 * Characters a batch may reach before it is written at once: a socket's high-water mark
 * (16 KiB), so a synchronous burst (a replay) still meets backpressure after about one buffer.
 */
const DEFAULT_MAX_BATCH_CHARS = 16 * 1024;

/** Server-sent-event frames waiting to go out together; see {@link frameBatch}. */
export interface FrameBatch {
  /** Adds a frame after the others: written with them later this turn, or now when the batch is full. */
  add(frame: string): void;
  /** The frames waiting, joined, and the batch emptied (its scheduled write cancelled). */
  take(): string;
}

/**
 * Collects the frames a response gets in one turn of the event loop and hands them to
 * `write` as ONE string, at `setImmediate` (after this turn's I/O callbacks) or as soon as
 * they reach `maxChars`. Under load a run's events come in bursts (two children's deltas
 * read in the same turn, a step's closing events): each `res.write` costs a `writev` of
 * chunked encoding's pieces, so one write per burst instead of one per event is most of an
 * SSE stream's CPU (docs/performance.md §11). The first frame waits no longer than the turn
 * it was made in. `write` sees the frames in order and decides about backpressure; a batch
 * taken (to end the response with it) is not written again.
 *
 * @example
 * ```ts
 * const batch = frameBatch((text) => res.write(text));
 * batch.add('data: 1\n\n');
 * batch.add('data: 2\n\n'); // both go out in one res.write, later in this turn
 * ```
 */
export function frameBatch(write: (text: string) => void, maxChars = DEFAULT_MAX_BATCH_CHARS): FrameBatch {
  let text = '';
  let scheduled: ReturnType<typeof setImmediate> | undefined;
  const take = (): string => {
    if (scheduled !== undefined) clearImmediate(scheduled);
    scheduled = undefined;
    const taken = text;
    text = '';
    return taken;
  };
  const flush = (): void => {
    const taken = take();
    if (taken !== '') write(taken);
  };
  return {
    add(frame) {
      // V8 concatenates lazily (a rope), flattened once by the write: no copy per frame
      text += frame;
      if (text.length >= maxChars) flush();
      else scheduled ??= setImmediate(flush);
    },
    take,
  };
}
