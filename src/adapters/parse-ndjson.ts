import { StringDecoder } from 'node:string_decoder';
import { Observable, type OperatorFunction } from 'rxjs';
import type { AgentEvent } from '../events/index.js';
import { isAgentEvent } from '../events/index.js';
import { LineSplitter } from './line-splitter.js';
import { NdjsonParseError } from './ndjson-parse-error.js';
import { taskWrapDepth } from './task-wrap-depth.js';
import { errorMessage } from '../errors/error-message.js';
import { eventDepthLimit, MAX_DELEGATION_DEPTH, nestsDeeper } from '../validation/json-depth.js';

/** Options of {@link parseNdjson}. */
export interface ParseNdjsonOptions {
  /**
   * The longest line accepted, in characters before its `\n` (UTF-16 code units: bytes, for
   * ASCII JSON). Default 10 MiB (10,485,760). A longer line errors the stream as soon as it passes the
   * limit, without waiting for its end, so a line that never ends cannot fill the memory.
   */
  readonly maxLineLength?: number;
  /**
   * The deepest `TaskWrap` nesting accepted, from 0 to 1000. Default 64; the engine nests one
   * `TaskWrap` per level of delegation (its `maxDepth`), so a deeper line is not one of its events.
   */
  readonly maxDepth?: number;
}

const DEFAULT_MAX_LINE_LENGTH = 10 * 1024 * 1024;
const DEFAULT_MAX_DEPTH = MAX_DELEGATION_DEPTH;
/** A sane ceiling: the engine's own trees are as deep as its `maxDepth` (a handful). */
const MAX_MAX_DEPTH = 1000;

/**
 * Reads NDJSON back into events. Chunks may split lines (and multi-byte characters)
 * anywhere; `\r\n` line ends and blank lines are accepted. A line that is not JSON, or not an
 * event (checked with `isAgentEvent`), or longer than `maxLineLength`, or with `TaskWrap`s
 * nested deeper than `maxDepth`, errors the stream with an {@link NdjsonParseError} naming
 * the line number; a chunk that is neither a string nor a `Buffer` errors it with a
 * `TypeError`. A last line without a line break is read at completion. Time is linear in
 * the input, however it is chunked.
 *
 * @example
 * ```ts
 * // a Node readable is an async iterable of Buffers, which `from` accepts
 * from(createReadStream('run.ndjson')).pipe(parseNdjson()).subscribe((event) => console.log(event.type));
 * ```
 */
export function parseNdjson(options: ParseNdjsonOptions = {}): OperatorFunction<string | Buffer, AgentEvent> {
  const maxLineLength = options.maxLineLength ?? DEFAULT_MAX_LINE_LENGTH;
  if (!Number.isSafeInteger(maxLineLength) || maxLineLength < 1) {
    throw new RangeError(`maxLineLength must be a whole number of characters, at least 1, got ${String(maxLineLength)}`);
  }
  const maxDepth = options.maxDepth ?? DEFAULT_MAX_DEPTH;
  if (!Number.isSafeInteger(maxDepth) || maxDepth < 0 || maxDepth > MAX_MAX_DEPTH) {
    throw new RangeError(`maxDepth must be a whole number from 0 to ${MAX_MAX_DEPTH}, got ${String(maxDepth)}`);
  }
  return (source) =>
    new Observable<AgentEvent>((subscriber) => {
      const decoder = new StringDecoder('utf8');
      let lineNumber = 0;
      const lines = new LineSplitter(maxLineLength, {
        line: (raw) => {
          lineNumber += 1;
          const line = raw.endsWith('\r') ? raw.slice(0, -1) : raw;
          if (line.trim() === '') return true;
          const parsed = parseLine(line, lineNumber, maxDepth);
          if (parsed instanceof NdjsonParseError) {
            subscriber.error(parsed);
            return false;
          }
          subscriber.next(parsed);
          return !subscriber.closed;
        },
        tooLong: (head) => {
          const reason = `is longer than maxLineLength (${maxLineLength} characters); pass a larger maxLineLength to read it`;
          subscriber.error(new NdjsonParseError(lineNumber + 1, head, reason));
        },
      });
      return source.subscribe({
        next: (chunk) => {
          if (subscriber.closed) return;
          if (typeof chunk === 'string') lines.push(chunk);
          // isView, not instanceof: a Buffer made in another realm (a vm context) still counts
          else if (ArrayBuffer.isView(chunk)) lines.push(decoder.write(chunk));
          else subscriber.error(new TypeError(`parseNdjson reads strings and Buffers, got ${chunk === null ? 'null' : typeof chunk}`));
        },
        error: (error: unknown) => subscriber.error(error),
        complete: () => {
          if (lines.end(decoder.end())) subscriber.complete();
        },
      });
    });
}

function parseLine(line: string, lineNumber: number, maxDepth: number): AgentEvent | NdjsonParseError {
  let value: unknown;
  try {
    // JSON.parse is not recursive in V8: a line nested 50,000 deep parses without a stack overflow.
    value = JSON.parse(line);
  } catch (error) {
    const why = errorMessage(error);
    return new NdjsonParseError(lineNumber, line, `is not valid JSON (${why})`);
  }
  // Bound the nesting before isAgentEvent walks it: a deep line is a clear error of its own.
  if (taskWrapDepth(value, maxDepth) === undefined) {
    return new NdjsonParseError(lineNumber, line, `is not an agent event: its TaskWraps nest more than ${maxDepth} deep (maxDepth)`);
  }
  // And the nesting of the whole line: a tool call's arguments 100,000 deep would overflow a subscriber that walks them.
  const deepest = eventDepthLimit(maxDepth);
  if (nestsDeeper(line, deepest)) {
    return new NdjsonParseError(lineNumber, line, `is not an agent event: it nests arrays and objects more than ${deepest} deep (deeper than any event under ${maxDepth} TaskWraps)`);
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
