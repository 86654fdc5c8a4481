import { Observable } from 'rxjs';
import { AbortError } from '../errors/abort-error.js';
import { errorOfIdentity } from '../errors/error-identity.js';
import type { EventLog } from './event-log.js';
import { EventStore } from './event-store.js';
import type { LogEnding, SequencedEvent } from './run-types.js';
import { UnknownRunError } from './unknown-run-error.js';
import { checkAfter } from './check-after.js';

interface Log {
  readonly runId: string;
  /** Event `seq` at index `seq - 1`. */
  readonly events: EventStore;
  /** The last entry appended, delivered as it was to readers that follow live. */
  last: SequencedEvent | undefined;
  ending: LogEnding | undefined;
  /** Readers waiting for more; each catches up from its own position when called. */
  readers: readonly (() => void)[];
}

/**
 * The embedded {@link EventLog}: each run's events in an array, readers notified as events
 * come. A reader replays from its position and then follows, delivering each event once, in
 * order, even when its consumer appends or reads re-entrantly. Text deltas are kept compactly
 * (`event-store.ts`); a replay rebuilds equal events.
 *
 * @example
 * ```ts
 * const log = new MemoryEventLog();
 * log.append({ runId: 'r', seq: 1, event });
 * log.read('r', 0).subscribe((e) => console.log(e.seq));
 * ```
 */
export class MemoryEventLog implements EventLog {
  readonly #logs = new Map<string, Log>();
  /** The log appended to last: a run appends thousands of events in a row. */
  #recent: Log | undefined;

  append(entry: SequencedEvent): void {
    let log = this.#recent?.runId === entry.runId ? this.#recent : this.#logs.get(entry.runId);
    if (!log) this.#logs.set(entry.runId, (log = { runId: entry.runId, events: new EventStore(), last: undefined, ending: undefined, readers: [] }));
    this.#recent = log;
    // A run cancelled mid-step may still emit what it had in hand: its readers were told the
    // log ended, so a late event is dropped, never thrown at the run that sent it.
    if (log.ending) return;
    if (entry.seq !== log.events.length + 1) {
      throw new Error(`run "${entry.runId}": event ${entry.seq} appended after ${log.events.length}; seqs must follow one another`);
    }
    log.events.push(entry.event);
    log.last = entry;
    // Copy-on-write: readers come and go rarely, events often, so an append iterates a snapshot
    // with no allocation. A reader that leaves meanwhile finds its subscriber closed; one that
    // joins caught up as it subscribed.
    const readers = log.readers;
    for (let i = 0; i < readers.length; i++) readers[i]!();
  }

  /** Creates the run's log empty, so readers can attach before its first event. */
  open(runId: string): void {
    if (!this.#logs.has(runId)) this.#logs.set(runId, { runId, events: new EventStore(), last: undefined, ending: undefined, readers: [] });
  }

  read(runId: string, after: number): Observable<SequencedEvent> {
    return new Observable<SequencedEvent>((subscriber) => {
      const log = this.#logs.get(runId);
      if (!log) {
        subscriber.error(new UnknownRunError(runId));
        return;
      }
      let next: number; // the index of seq `after + 1`
      try {
        next = checkAfter(after, 'MemoryEventLog.read');
      } catch (error) {
        subscriber.error(error);
        return;
      }
      let pumping = false;
      const pump = (): void => {
        // Called again while delivering (a consumer that appends): the loop below picks the new entries up.
        if (pumping) return;
        pumping = true;
        while (next < log.events.length && !subscriber.closed) subscriber.next(entryAt(log, runId, next++));
        pumping = false;
        if (subscriber.closed || !log.ending || next < log.events.length) return;
        if (this.#logs.get(runId) !== log) subscriber.error(new UnknownRunError(runId));
        else if (log.ending.kind === 'cancelled') subscriber.error(new AbortError(new Error(log.ending.reason)));
        else if (log.ending.kind === 'failed') subscriber.error(errorOfIdentity(log.ending));
        else subscriber.complete();
      };
      log.readers = [...log.readers, pump];
      pump();
      return () => (log.readers = log.readers.filter((r) => r !== pump));
    });
  }

  end(runId: string, ending: LogEnding): void {
    const log = this.#logs.get(runId);
    if (!log || log.ending) return;
    log.ending = ending;
    log.events.seal();
    for (const reader of log.readers) reader();
  }

  delete(runId: string): void {
    const log = this.#logs.get(runId);
    if (!log) return;
    this.#logs.delete(runId);
    if (this.#recent === log) this.#recent = undefined;
    log.ending ??= { kind: 'complete' };
    for (const reader of log.readers) reader();
  }
}

/** The entry at `index`: the one appended when it is the last (a live reader), else rebuilt. */
function entryAt(log: Log, runId: string, index: number): SequencedEvent {
  const seq = index + 1;
  if (log.last?.seq === seq) return log.last;
  return { runId, seq, event: log.events.at(index) };
}
