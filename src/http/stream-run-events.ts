import type { ServerResponse } from 'node:http';
import { Subject, take, takeUntil, type Observable, type Subscription } from 'rxjs';
import { DEFAULT_DRAIN_TIMEOUT_MS, destroyUnlessDrained } from '../adapters/drain-deadline.js';
import { frameBatch } from '../adapters/sse-frame-batch.js';
import { writeSseHeaders } from '../adapters/sse-headers.js';
import { writeSseText } from '../adapters/write-sse-text.js';
import { AbortError } from '../errors/abort-error.js';
import { errorMessage } from '../errors/error-message.js';
import { eventJson } from '../runs/event-json.js';
import type { SequencedEvent } from '../runs/run-types.js';
import { destroyUnlessDrainedAfterRunEnd, RUN_END_CHECK_MS } from './run-end-drain-deadline.js';

/** Where a stream reads a run from: `engine.runs.attach`. */
export type AttachRun = (after: number) => Observable<SequencedEvent>;

/**
 * Writes a started run to `res` as server-sent events, from the event after `after`: each
 * event a message `id: <seq>` / `data: <SequencedEvent JSON>`, then `event: end` after the
 * run's `RunEnd`, `event: cancelled` (data `{ reason }`) when it was cancelled, or
 * `event: error` (data `{ name, message }`) when its log failed; then the response ends.
 * The ending frame has an `id:` too, one past the last seq written (past `after` when nothing
 * was): not an event's seq, but what lets an EventSource that reconnects say it saw the ending
 * (`Last-Event-ID` past the run's last event: answered `204`, see `runsHandler`) or missed it.
 *
 * Backpressure without a queue: a started run is kept in its event log, so when the socket
 * is full (`res.write()` returns `false`) the stream detaches from the run and, on
 * `'drain'`, attaches again after the last seq it wrote. A slow client costs the server one
 * socket buffer, whatever the run's size, and is never cut for being slow; but once the
 * last frame is handed to `res.end`, it has 30 s to take it (`destroyUnlessDrained`). A client
 * that is waited for (`'drain'`) when the run ends hears nothing of the end: `runEnded` is
 * asked every second meanwhile, and once it says so the client has 30 s to drain, else it is
 * cut (`destroyUnlessDrainedAfterRunEnd`). When the client goes away, the stream detaches;
 * the run goes on (only `DELETE` cancels it).
 *
 * The events of one turn go out in one `res.write` (`frameBatch`): a replay or a burst is a
 * few large writes, not one per event.
 *
 * @example
 * ```ts
 * streamRunEvents((after) => engine.runs.attach(runId, { after }), 0, res, 15_000, () => engine.runs.get(runId)?.state !== 'running');
 * ```
 */
export function streamRunEvents(attach: AttachRun, after: number, res: ServerResponse, keepAliveMs: number, runEnded: () => boolean): void {
  writeSseHeaders(res);
  let last = after;
  let attachment: Subscription | undefined;
  let waiting = false; // for 'drain'
  let done = false;
  let timer: ReturnType<typeof setInterval> | undefined;
  // while waiting for 'drain': cancels the watch for the run's end
  let unwatch = (): void => undefined;
  // the current attachment's: set once it detaches for a full socket
  let pause$ = new Subject<void>();
  let paused = false;
  // false: the frames are taken, but the socket is full. Detach now (also in the middle of a
  // synchronous replay: takeUntil stops the log's loop) and come back on 'drain'.
  const batch = frameBatch((text) => {
    if (done || res.writableEnded || res.destroyed || writeSseText(res, text) || paused) return;
    paused = true;
    pause$.next();
  });
  // a run's id is the same in every event: quoted once, with the text around it, not by each event's frame
  let runIdPart = '';
  let runId: string | undefined;
  // a delta's frame around its text is the same as its stream's previous one's: made once per stream
  const eventPart = eventJson(',"event":', '}\n\n');

  const stop = (): void => {
    done = true;
    batch.take();
    attachment?.unsubscribe();
    unwatch();
    clearInterval(timer);
    res.off('drain', follow).off('close', stop);
  };
  // The ending's id is one past the last seq written (see the TSDoc): an EventSource that saw it
  // reconnects past the run's last event (a 204 stops it); one that missed it comes back before.
  const finish = (ending: string): void => {
    const frames = batch.take();
    stop();
    if (!res.writableEnded && !res.destroyed) res.end(`${frames}${ending}\nid: ${last + 1}\n\n`);
    // the run is over: a client that stopped reading must not keep the socket after it
    destroyUnlessDrained(res, DEFAULT_DRAIN_TIMEOUT_MS);
  };
  function follow(): void {
    if (done) return;
    unwatch();
    waiting = false;
    pause$ = new Subject<void>();
    paused = false;
    attachment = attach(last)
      .pipe(takeUntil(pause$))
      .subscribe({
        next: (entry) => {
          let event: string;
          try {
            event = eventPart(entry.event);
          } catch (error) {
            return finish(errorFrame(error));
          }
          if (entry.runId !== runId) runIdPart = `\ndata: {"runId":${JSON.stringify((runId = entry.runId))},"seq":`;
          const seq = String((last = entry.seq));
          // `id: <seq>`, then the SequencedEvent's JSON, its keys in their order
          batch.add(`id: ${seq}${runIdPart}${seq}${event}`);
        },
        error: (error: unknown) => finish(AbortError.isInstance(error) ? cancelledFrame(error) : errorFrame(error)),
        complete: () => {
          if (!paused) return finish('event: end\ndata: {}');
          waiting = true;
          res.once('drain', follow);
          unwatch = destroyUnlessDrainedAfterRunEnd(res, runEnded, RUN_END_CHECK_MS, DEFAULT_DRAIN_TIMEOUT_MS);
        },
      });
  }

  res.once('close', stop);
  if (keepAliveMs > 0) {
    // a full socket is not an idle connection: no comment is queued behind real messages
    timer = setInterval(() => waiting || batch.add(': keep-alive\n\n'), keepAliveMs);
    timer.unref();
  }
  follow();
}

/**
 * Whether a run's log holds nothing past `after`: its reader ends (or fails with the run's
 * ending) before a first event. Asked of a run that is over, whose reader ends once it has
 * replayed, so it settles; the stream it reads once more is then only its ending frame.
 *
 * @example
 * ```ts
 * if (await nothingPast((after) => engine.runs.attach(runId, { after }), 42)) res.writeHead(204).end();
 * ```
 */
export function nothingPast(attach: AttachRun, after: number): Promise<boolean> {
  return new Promise((resolve) => {
    attach(after)
      .pipe(take(1))
      .subscribe({ next: () => resolve(false), error: () => resolve(true), complete: () => resolve(true) });
  });
}

function cancelledFrame(error: unknown): string {
  const cause = (error as { cause?: unknown }).cause;
  return `event: cancelled\ndata: ${JSON.stringify({ reason: cause === undefined ? errorMessage(error) : errorMessage(cause) })}`;
}

function errorFrame(error: unknown): string {
  let payload: { name: string; message: string };
  try {
    payload = { name: error instanceof Error ? String(error.name) : 'Error', message: errorMessage(error) };
  } catch {
    payload = { name: 'Error', message: 'the run failed with an error that cannot be described' };
  }
  return `event: error\ndata: ${JSON.stringify(payload)}`;
}
