import type { Observable } from 'rxjs';
import type { MaybePromise } from '../session/session-store.js';
import type { LogEnding, SequencedEvent } from './run-types.js';

/**
 * Where the events of started runs are kept, so anyone can attach to a run at any time and
 * read it from any position. One writer per run (the engine running it) appends events with
 * consecutive `seq`s, then ends the log once; readers replay and follow.
 *
 * The shape fits a Redis Stream as well as memory: `append` is an `XADD`, `read` an `XRANGE`
 * followed by blocking `XREAD`s until the end marker, `end` an entry of its own, `delete` a
 * `DEL`.
 *
 * @example
 * ```ts
 * log.append({ runId, seq: 1, event });
 * log.read(runId, 0).subscribe((e) => console.log(e.seq, e.event.type)); // replays, then follows
 * log.end(runId, { kind: 'complete' });
 * ```
 */
export interface EventLog {
  /** Adds the run's next event (its `seq` is the previous one + 1). */
  append(entry: SequencedEvent): MaybePromise<void>;
  /**
   * The run's events with `seq > after`, in order, with no gap and no duplicate: those
   * already appended, then the later ones as they come. After the last event it completes
   * (the log ended `complete`), errors with `AbortError` (`cancelled`) or with the run's
   * error (`failed`); it errors with `UnknownRunError` when the log does not exist.
   */
  read(runId: string, after: number): Observable<SequencedEvent>;
  /**
   * Creates the run's log empty (unless it exists), so readers can attach before its first
   * event: a run may wait before it emits anything (its session's claim in a shared store).
   * Optional: without it, a run is readable from its first event on.
   */
  open?(runId: string): MaybePromise<void>;
  /** Marks the log as complete: a later append is dropped (never thrown); readers finish after the last event. */
  end(runId: string, ending: LogEnding): MaybePromise<void>;
  /** Forgets a run's log (retention); its readers end as if it were unknown. */
  delete(runId: string): MaybePromise<void>;
}
