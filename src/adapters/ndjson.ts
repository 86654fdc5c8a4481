import { once } from 'node:events';
import { StringDecoder } from 'node:string_decoder';
import { concatMap, map, Observable, type OperatorFunction, type Subscription } from 'rxjs';
import type { AgentEvent } from '../events/index.js';
import { isAgentEvent } from '../events/index.js';
import { NdjsonParseError } from './ndjson-parse-error.js';

/**
 * Serialises each event as one line of JSON ending in `\n` (NDJSON). Events are plain
 * JSON, so `JSON.parse` of a line gives the event back.
 *
 * @example
 * ```ts
 * engine.stream(prompt).pipe(toNdjson()).subscribe((line) => process.stdout.write(line));
 * ```
 */
export function toNdjson(): OperatorFunction<AgentEvent, string> {
  return map((event) => `${JSON.stringify(event)}\n`);
}

/** Options of {@link writeNdjson}. */
export interface WriteNdjsonOptions {
  /** End the writable once every line is written (default `false`: e.g. keep stdout open). */
  readonly end?: boolean;
}

/**
 * Writes a run's events to a writable stream as NDJSON, honouring backpressure: when
 * `write` returns `false` the next line waits for `'drain'` (later events queue in memory
 * meanwhile). Resolves when the run completes and every line is handed over; rejects on the
 * run's error, or on the writable's error or early close, in which case the run is
 * unsubscribed (aborted).
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
  return new Promise<void>((resolve, reject) => {
    const stopWaiting = new AbortController();
    let subscription: Subscription | undefined;
    let settled = false;
    const settle = (error?: unknown): void => {
      if (settled) return;
      settled = true;
      stopWaiting.abort();
      writable.off('error', settle);
      writable.off('close', onClose);
      subscription?.unsubscribe();
      if (error !== undefined) reject(error);
      else if (options.end !== true) resolve();
      else {
        once(writable, 'finish').then(() => resolve(), reject);
        writable.end();
      }
    };
    const onClose = (): void => settle(new Error('The NDJSON output closed before the event stream ended'));
    writable.on('error', settle);
    writable.on('close', onClose);
    subscription = events$
      .pipe(toNdjson(), concatMap((line) => writeLine(writable, line, stopWaiting.signal)))
      .subscribe({ error: (error: unknown) => settle(error ?? new Error('The event stream failed')), complete: () => settle() });
    if (settled) subscription.unsubscribe();
  });
}

async function writeLine(writable: NodeJS.WritableStream, line: string, signal: AbortSignal): Promise<void> {
  if (!writable.write(line)) await once(writable, 'drain', { signal });
}

/**
 * Reads NDJSON back into events. Chunks may split lines (and multi-byte characters)
 * anywhere; `\r\n` line ends and blank lines are accepted. A line that is not JSON, or not an
 * event (checked with `isAgentEvent`), errors the stream with an {@link NdjsonParseError}
 * naming the line number. A last line without a line break is read at completion.
 *
 * @example
 * ```ts
 * // a Node readable is an async iterable of Buffers, which `from` accepts
 * from(createReadStream('run.ndjson')).pipe(parseNdjson()).subscribe((event) => console.log(event.type));
 * ```
 */
export function parseNdjson(): OperatorFunction<string | Buffer, AgentEvent> {
  return (source) =>
    new Observable<AgentEvent>((subscriber) => {
      const decoder = new StringDecoder('utf8');
      let pending = '';
      let lineNumber = 0;
      const emitLine = (raw: string): boolean => {
        lineNumber += 1;
        const line = raw.endsWith('\r') ? raw.slice(0, -1) : raw;
        if (line.trim() === '') return true;
        const parsed = parseLine(line, lineNumber);
        if (parsed instanceof NdjsonParseError) {
          subscriber.error(parsed);
          return false;
        }
        subscriber.next(parsed);
        return true;
      };
      return source.subscribe({
        next: (chunk) => {
          if (subscriber.closed) return;
          pending += typeof chunk === 'string' ? chunk : decoder.write(chunk);
          let newline = pending.indexOf('\n');
          while (newline !== -1) {
            const line = pending.slice(0, newline);
            pending = pending.slice(newline + 1);
            if (!emitLine(line)) return;
            newline = pending.indexOf('\n');
          }
        },
        error: (error: unknown) => subscriber.error(error),
        complete: () => {
          pending += decoder.end();
          if (pending !== '' && !emitLine(pending)) return;
          subscriber.complete();
        },
      });
    });
}

function parseLine(line: string, lineNumber: number): AgentEvent | NdjsonParseError {
  let value: unknown;
  try {
    value = JSON.parse(line);
  } catch (error) {
    const why = error instanceof Error ? error.message : String(error);
    return new NdjsonParseError(lineNumber, line, `is not valid JSON (${why})`);
  }
  if (!isAgentEvent(value)) {
    return new NdjsonParseError(
      lineNumber,
      line,
      'is not an agent event (expected an object with a known `type` and string `runId` and `agentName`)',
    );
  }
  return value;
}
