/**
 * How many model requests may start in one turn of the event loop. Runs started over HTTP
 * (`POST /runs` and the protocol routes) take the same turns: a thousand `POST`s readable
 * at once otherwise started a thousand runs in one turn, 0.7 s in which no stream was read
 * (docs/performance.md §11, "Stop 39").
 *
 * Starting a request costs the process about a millisecond of CPU (the openai client's
 * options, headers and body, our transport's write), all of it in one chain of microtasks.
 * When many runs change phase together (a burst of POSTs, a `multitask` fanning out, the
 * children of many runs ending at once), those chains ran back to back and held the event
 * loop: every other stream's deltas waited behind n milliseconds of request starts. That
 * stall was the delivery p99 of `serve` under load (docs/performance.md §11, "Request starts
 * take turns"). Four a turn, with the sockets read between: one a turn kept the p99 lowest,
 * but at saturation each socket read and each SSE write then carried fewer events, and CPU
 * per event rose by half; sixteen kept the CPU and gave back most of the p99. Four is the
 * measured middle.
 */
export const REQUEST_STARTS_PER_TURN = 4;

/**
 * The event loop's own `setImmediate`, taken when this module loads: a test that fakes the
 * timers later still has its model requests start (their sockets are real; so is this turn).
 */
const nextTurn = setImmediate;

/** A request waiting for its turn: how to let it start, and whether it was cancelled meanwhile. */
interface Waiter {
  readonly start: () => void;
  readonly cancelled: (() => boolean) | undefined;
}

/** Requests waiting for their turn, oldest first: `waiting[head]` is the next to start. */
const waiting: Waiter[] = [];
let head = 0;
let scheduled = false;

/**
 * Resolves when this request may start: in the next turn of the event loop (its check
 * phase, after the sockets were read), behind every request that asked before it, at most
 * {@link REQUEST_STARTS_PER_TURN} in a turn. An idle process pays one turn, a few
 * microseconds. `cancelled` says whether the request was cancelled while it waited: such a
 * request is let go in the next turn without taking one of its places, so that a flood of
 * runs started and cancelled at once cannot hold back the requests behind them.
 *
 * @example
 * ```ts
 * await requestTurn(() => cancel.aborted);
 * if (cancel.aborted) throw abortError(undefined); // the run left while it waited: start nothing
 * return client.chat.completions.create(body).asResponse();
 * ```
 */
export function requestTurn(cancelled?: () => boolean): Promise<void> {
  return new Promise((start) => {
    waiting.push({ start, cancelled });
    if (!scheduled) {
      scheduled = true;
      nextTurn(startSome);
    }
  });
}

/** Lets the next few waiting requests start; schedules itself again while more wait. */
function startSome(): void {
  for (let started = 0; started < REQUEST_STARTS_PER_TURN && head < waiting.length; head++) {
    const { start, cancelled } = waiting[head]!;
    if (cancelled?.() !== true) started++;
    start();
  }
  if (head === waiting.length) {
    waiting.length = 0;
    head = 0;
    scheduled = false;
    return;
  }
  // A queue that never drains (requests keep coming) drops its started part now and then:
  // one `shift` per start would copy the whole queue each time.
  if (head >= 1_024) {
    waiting.splice(0, head);
    head = 0;
  }
  nextTurn(startSome);
}
