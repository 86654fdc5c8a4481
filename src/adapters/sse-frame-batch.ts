import { performance } from 'node:perf_hooks';
import { setImmediate } from 'node:timers';

/**
 * Characters a batch may reach before it is written at once: a socket's high-water mark
 * (16 KiB), so a synchronous burst (a replay) still meets backpressure after about one buffer.
 */
const DEFAULT_MAX_BATCH_CHARS = 16 * 1024;
/**
 * How long a frame may wait for the end of its turn of the event loop. A turn that reads
 * hundreds of sockets (a thousand live runs) can last tens of milliseconds; past this, the
 * next frame added anywhere writes every batch waiting first.
 */
const MAX_WAIT_MS = 5;

/**
 * The writes due at the end of this turn, shared by every batch of the process: one
 * `setImmediate` a turn however many responses wait. `node:timers` and `node:perf_hooks`,
 * not the globals, so a test's fake timers never hold a response's frames back.
 */
let due: Array<() => void> = [];
let dueSince = 0;
let turnEndScheduled = false;

function writeDue(): void {
  const writes = due;
  due = [];
  for (const write of writes) write();
}

function atTurnEnd(): void {
  turnEndScheduled = false;
  writeDue();
}

function atTheEndOfTheTurn(write: () => void): void {
  if (due.length === 0) dueSince = performance.now();
  due.push(write);
  if (!turnEndScheduled) {
    turnEndScheduled = true;
    setImmediate(atTurnEnd);
  }
}

/** Server-sent-event frames waiting to go out together; see {@link frameBatch}. */
export interface FrameBatch {
  /** Adds a frame after the others: written with them at the end of this turn, or now when the batch is full. */
  add(frame: string): void;
  /** The frames waiting, joined, and the batch emptied (its scheduled write then finds nothing). */
  take(): string;
}

/**
 * Collects the frames a response gets in one turn of the event loop (a replay, a step's
 * closing events, the deltas of two children read by different socket callbacks) and hands
 * them to `write` as ONE string at the end of the turn (`setImmediate`), or at once when they
 * reach `maxChars`. Each write is a `writev` to the kernel, the largest single cost of a
 * server streaming a thousand runs (docs/performance.md §11, stop 38): joining a turn's
 * frames cut a fifth of them. No frame waits for I/O or for more than about 5 ms: in a
 * longer turn, the next frame added to any batch first writes every batch waiting. `write`
 * sees the frames in order and decides about backpressure; a batch taken (to end the
 * response with it) is not written again. A `write` that throws later is reported as an
 * uncaught exception, as from `queueMicrotask`; one that throws for a full batch throws to
 * the caller of `add`.
 *
 * @example
 * ```ts
 * const batch = frameBatch((text) => res.write(text));
 * batch.add('data: 1\n\n');
 * batch.add('data: 2\n\n'); // both go out in one res.write, at the end of this turn
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
  // a batch taken or written full meanwhile leaves nothing, or only what came since, to write
  const writeTaken = (): void => {
    const taken = take();
    if (taken !== '') write(taken);
  };
  const writeScheduled = (): void => {
    scheduled = false;
    try {
      writeTaken();
    } catch (error) {
      // thrown as from `queueMicrotask`: an uncaught exception, not a rejection nobody handles
      queueMicrotask(() => {
        throw error;
      });
    }
  };
  return {
    add(frame) {
      if (due.length > 0 && performance.now() - dueSince >= MAX_WAIT_MS) writeDue();
      // V8 concatenates lazily (a rope), flattened once by the write: no copy per frame
      text += frame;
      if (text.length >= maxChars) writeTaken();
      else if (!scheduled) {
        scheduled = true;
        atTheEndOfTheTurn(writeScheduled);
      }
    },
    take,
  };
}
