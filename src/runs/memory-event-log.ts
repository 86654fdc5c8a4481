import { Observable } from 'rxjs';
import { AbortError } from '../agent/abort-error.js';
import type { EventLog } from './event-log.js';
import type { LogEnding, SequencedEvent } from './run-types.js';
import { UnknownRunError } from './unknown-run-error.js';

interface Log {
  readonly entries: SequencedEvent[];
  ending: LogEnding | undefined;
  /** Readers waiting for more; each catches up from its own position when called. */
  readonly readers: Set<() => void>;
}

/**
 * The embedded {@link EventLog}: each run's events in an array, readers notified as events
 * come. A reader replays from its position and then follows, delivering each event once, in
 * order, even when its consumer appends or reads re-entrantly.
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

  append(entry: SequencedEvent): void {
    let log = this.#logs.get(entry.runId);
    if (!log) this.#logs.set(entry.runId, (log = { entries: [], ending: undefined, readers: new Set() }));
    if (log.ending) throw new Error(`run "${entry.runId}": its event log has ended; nothing more can be appended`);
    if (entry.seq !== log.entries.length + 1) {
      throw new Error(`run "${entry.runId}": event ${entry.seq} appended after ${log.entries.length}; seqs must follow one another`);
    }
    log.entries.push(entry);
    // No copy per event: a reader that leaves meanwhile is skipped by the Set's iteration, and
    // one that joins is called too, which is harmless (a reader only catches up).
    for (const reader of log.readers) reader();
  }

  read(runId: string, after: number): Observable<SequencedEvent> {
    return new Observable<SequencedEvent>((subscriber) => {
      const log = this.#logs.get(runId);
      if (!log) {
        subscriber.error(new UnknownRunError(runId));
        return;
      }
      let next = Math.max(0, Math.floor(after)); // the index of seq `after + 1`
      let pumping = false;
      const pump = (): void => {
        // Called again while delivering (a consumer that appends): the loop below picks the new entries up.
        if (pumping) return;
        pumping = true;
        while (next < log.entries.length && !subscriber.closed) subscriber.next(log.entries[next++]!);
        pumping = false;
        if (subscriber.closed || !log.ending || next < log.entries.length) return;
        if (this.#logs.get(runId) !== log) subscriber.error(new UnknownRunError(runId));
        else if (log.ending.kind === 'cancelled') subscriber.error(new AbortError(new Error(log.ending.reason)));
        else if (log.ending.kind === 'failed') subscriber.error(new Error(log.ending.message));
        else subscriber.complete();
      };
      log.readers.add(pump);
      pump();
      return () => log.readers.delete(pump);
    });
  }

  end(runId: string, ending: LogEnding): void {
    const log = this.#logs.get(runId);
    if (!log || log.ending) return;
    log.ending = ending;
    for (const reader of [...log.readers]) reader();
  }

  delete(runId: string): void {
    const log = this.#logs.get(runId);
    if (!log) return;
    this.#logs.delete(runId);
    log.ending ??= { kind: 'complete' };
    for (const reader of [...log.readers]) reader();
  }
}
