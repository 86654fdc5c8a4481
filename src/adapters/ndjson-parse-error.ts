import { RxHarnessError } from '../errors/rxharness-error.js';
import { markInvisible } from '../text/visible-text.js';

/**
 * A line of NDJSON input that is not an agent event: invalid JSON, JSON that lacks an
 * event's shape or nests `TaskWrap`s deeper than `maxDepth`, or a line longer than
 * `maxLineLength`. `lineNumber` counts from 1 over every line of the input, blank ones too.
 *
 * @example
 * ```ts
 * lines$.pipe(parseNdjson()).subscribe({
 *   error: (e) => { if (e instanceof NdjsonParseError) console.error(`bad input at line ${e.lineNumber}`); },
 * });
 * ```
 */
export class NdjsonParseError extends RxHarnessError {
  /** The code of these errors. */
  static override readonly code = 'NDJSON_PARSE';
  /** Always `'NdjsonParseError'`, to recognise the error without `instanceof` (e.g. across package copies). */
  override readonly name = 'NdjsonParseError';

  /**
   * @param lineNumber - 1-based number of the offending line.
   * @param line - The offending line (as read, without its line break); only its first 1024
   *   characters for a line over `maxLineLength`.
   * @param reason - Why the line was rejected.
   */
  constructor(
    readonly lineNumber: number,
    readonly line: string,
    reason: string,
  ) {
    // the reason may quote the line too (JSON.parse's message does)
    super(`NDJSON line ${lineNumber} ${markInvisible(reason)}: ${preview(line)}`);
  }
}

const PREVIEW_CHARS = 80;

/** The start of the line, its controls marked: the message is printed to terminals, where raw escapes in a hostile file would act. */
function preview(line: string): string {
  return markInvisible(line.length <= PREVIEW_CHARS ? line : `${line.slice(0, PREVIEW_CHARS)}…`);
}
