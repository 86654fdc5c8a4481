/**
 * Where readers of run logs stopped before their log's end, so a reader that goes on from
 * there (an SSE stream attaching again after a full socket) reads only what follows.
 *
 * @module
 */
import type { LogOrder } from './log-order.js';

/** How many positions an event log keeps: the oldest is forgotten first (its reader then scans once). */
const MAX_POSITIONS = 1000;

/** Entries a reader's first `XRANGE` asks for when no position says more: a consumer may take few. @internal */
export const FIRST_COUNT = 16;
/** The most entries one `XRANGE` asks for (a reader doubles its count up to this). @internal */
export const MAX_COUNT = 1000;

/** Where a reader of one log stopped: after its last entry handled, the log's order there. @internal */
export interface LogPosition {
  /** The id of the last entry handled: the next reader reads after it. */
  readonly last: string;
  /** The log's order up to `last`: the stopped reader's own, which it never touches again. */
  readonly order: LogOrder;
  /** How many entries to ask for first: about twice what the stopped reader's consumer took. */
  readonly count: number;
}

/**
 * A bounded memory of {@link LogPosition}s, one per run and seq (the last seq the stopped
 * reader delivered, or the `after` it was asked for). A position goes to ONE reader (`take`):
 * that reader remembers its own when it stops. Only what this process's readers handled is
 * kept, never anything read from Redis that a reader did not check.
 *
 * @internal
 */
export class LogPositions {
  readonly #at = new Map<string, LogPosition>();

  /** Keeps where a reader of `runId` stopped, having delivered every event up to `seq`. */
  remember(runId: string, seq: number, position: LogPosition): void {
    const key = `${seq} ${runId}`;
    this.#at.delete(key);
    this.#at.set(key, position);
    if (this.#at.size > MAX_POSITIONS) this.#at.delete(this.#at.keys().next().value!);
  }

  /** The position after `seq` of `runId`'s log, if one is known; forgotten here once taken. */
  take(runId: string, seq: number): LogPosition | undefined {
    const key = `${seq} ${runId}`;
    const position = this.#at.get(key);
    this.#at.delete(key);
    return position;
  }
}
