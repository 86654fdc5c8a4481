/**
 * Characters a batch may reach before it is written at once: a socket's high-water mark
 * (16 KiB), so a synchronous burst (a replay) still meets backpressure after about one buffer.
 */
const DEFAULT_MAX_BATCH_CHARS = 16 * 1024;
/**
 * Settled once: a `then` on it queues the flush as a microtask, at the place in the queue
 * `queueMicrotask` would, without the async resource and bound function Node makes for every
 * `queueMicrotask` (a live run's events come one at a time: a flush per event).
 */
const SETTLED = Promise.resolve();

/** Server-sent-event frames waiting to go out together; see {@link frameBatch}. */
export interface FrameBatch {
  /** Adds a frame after the others: written with them later this turn, or now when the batch is full. */
  add(frame: string): void;
  /** The frames waiting, joined, and the batch emptied (its scheduled write then finds nothing). */
  take(): string;
}

/**
 * Collects the frames a response gets in one go (one callback and its microtasks: a
 * replay, a step's closing events, a network read's deltas) and hands them to `write` as ONE
 * string, in a microtask, or as soon as they reach `maxChars`. Each `res.write` of a chunked
 * response costs four buffers in the `writev` Node makes at the end of the tick; one write
 * per burst costs four. No frame waits for I/O: the first goes out in the same tick it was
 * made in (docs/performance.md §11: flushing at `setImmediate` instead, to join the bursts of
 * one whole turn, cost latency and saved no measurable CPU). `write` sees the frames in
 * order and decides about backpressure; a batch taken (to end the response with it) is not
 * written again.
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
  let scheduled = false;
  const take = (): string => {
    const taken = text;
    text = '';
    return taken;
  };
  // a batch taken meanwhile leaves nothing to write
  const flush = (): void => {
    scheduled = false;
    const taken = take();
    if (taken !== '') write(taken);
  };
  const flushLater = (): void => {
    try {
      flush();
    } catch (error) {
      // thrown as from `queueMicrotask`: an uncaught exception, not a rejection nobody handles
      queueMicrotask(() => {
        throw error;
      });
    }
  };
  return {
    add(frame) {
      // V8 concatenates lazily (a rope), flattened once by the write: no copy per frame
      text += frame;
      if (text.length >= maxChars) flush();
      else if (!scheduled) {
        scheduled = true;
        void SETTLED.then(flushLater);
      }
    },
    take,
  };
}
