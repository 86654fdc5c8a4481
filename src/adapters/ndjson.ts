import { once } from 'node:events';
import { map, type Observable, type OperatorFunction, type Subscription } from 'rxjs';
import type { AgentEvent } from '../events/index.js';
import { BufferOverflowError } from './buffer-overflow-error.js';
import { checkSource } from './check-source.js';
import { wireJson } from '../text/wire-json.js';

// The reader lives in its own file; it is also exported from here, where it always was.
export { parseNdjson, type ParseNdjsonOptions } from './parse-ndjson.js';

/**
 * Serialises each event as one line of JSON ending in `\n` (NDJSON). Events are plain
 * JSON, so `JSON.parse` of a line gives the event back. The line holds no raw line break of
 * any convention (U+2028, U+2029 and NEL included) and no control or format character: they
 * are written as `\uXXXX` escapes (see `wireJson`). A value that is not JSON (`undefined`, a
 * cycle, a `BigInt`) errors the stream with a `TypeError` instead of writing a broken line.
 *
 * @example
 * ```ts
 * engine.stream(prompt).pipe(toNdjson()).subscribe((line) => process.stdout.write(line));
 * ```
 */
export function toNdjson(): OperatorFunction<AgentEvent, string> {
  return map((event) => {
    const json = wireJson(event);
    // `JSON.stringify` gives nothing for it: the line would be the word `undefined`
    if (json === undefined) throw new TypeError(`toNdjson got a value (${typeof event}) that has no JSON: only events can be written as NDJSON lines`);
    return `${json}\n`;
  });
}

/** Options of {@link writeNdjson}. */
export interface WriteNdjsonOptions {
  /** End the writable once every line is written (default `false`: e.g. keep stdout open). */
  readonly end?: boolean;
  /**
   * How many lines may wait for the writable's `'drain'` (default 10 000). An output that
   * stops draining (a pipe nobody reads) would otherwise hold the whole run in memory.
   */
  readonly bufferSize?: number;
}

const DEFAULT_BUFFER_SIZE = 10_000;

/**
 * Writes a run's events to a writable stream as NDJSON (a sink: the stream first, then the
 * writable, then options; a first argument that is not an Observable rejects with a
 * `TypeError`, and nothing is written). It honours backpressure: when
 * `write` returns `false`, later lines wait in memory, in order, until `'drain'`. Resolves
 * when the run completes and every line is handed over; rejects on the run's error, or on
 * the writable's error or early close, or with a {@link BufferOverflowError} when more than
 * `bufferSize` lines wait; in every failure the run is unsubscribed (aborted).
 *
 * @example
 * ```ts
 * await writeNdjson(engine.stream(prompt), createWriteStream('run.ndjson'), { end: true });
 * ```
 */
export function writeNdjson(
  events$: Observable<AgentEvent>,
  writable: NodeJS.WritableStream,
  options: WriteNdjsonOptions = {},
): Promise<void> {
  try {
    checkSource(events$, 'writeNdjson(events$, writable, options)');
  } catch (error) {
    return Promise.reject(error);
  }
  const bufferSize = options.bufferSize ?? DEFAULT_BUFFER_SIZE;
  if (!Number.isSafeInteger(bufferSize) || bufferSize < 1) {
    return Promise.reject(new RangeError(`bufferSize must be a whole number of lines, at least 1, got ${String(bufferSize)}`));
  }
  return new Promise<void>((resolve, reject) => {
    let subscription: Subscription | undefined;
    let settled = false;
    let completed = false;
    const waiting: string[] = [];
    let head = 0;
    let blocked = false;
    const settle = (error?: unknown): void => {
      if (settled) return;
      settled = true;
      writable.off('error', settle);
      writable.off('close', onClose);
      writable.off('drain', onDrain);
      subscription?.unsubscribe();
      if (error !== undefined) reject(error);
      else if (options.end !== true) resolve();
      else {
        once(writable, 'finish').then(() => resolve(), reject);
        writable.end();
      }
    };
    const onClose = (): void => settle(new Error('The NDJSON output closed before the event stream ended'));
    function onDrain(): void {
      blocked = false;
      while (head < waiting.length && !blocked) blocked = !writable.write(waiting[head++]!);
      if (head === waiting.length) {
        waiting.length = 0;
        head = 0;
      }
      if (!blocked && completed) settle();
    }
    writable.on('error', settle);
    writable.on('close', onClose);
    writable.on('drain', onDrain);
    subscription = events$.pipe(toNdjson()).subscribe({
      next: (line) => {
        if (settled) return; // a synchronous source runs on until subscribe() returns
        if (!blocked) blocked = !writable.write(line);
        else if (waiting.push(line) - head > bufferSize) settle(new BufferOverflowError(bufferSize));
      },
      error: (error: unknown) => settle(error ?? new Error('The event stream failed')),
      complete: () => {
        completed = true;
        if (!blocked) settle();
      },
    });
    if (settled) subscription.unsubscribe();
  });
}
