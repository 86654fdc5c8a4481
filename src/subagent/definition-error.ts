import { RxHarnessError } from '../errors/rxharness-error.js';

/**
 * An agent definition that cannot be used: bad front matter, a missing required field, a
 * value of the wrong type. The message says what is wrong and where
 * (`agents/x.md: front matter has no "name"`).
 */
export class DefinitionError extends RxHarnessError {
  /** The code of these errors. */
  static override readonly code = 'INVALID_DEFINITION';
  /** Always `'DefinitionError'`, to recognise the error without `instanceof` (e.g. across package copies). */
  override readonly name = 'DefinitionError';
  /** The file the definition came from, when it came from one. */
  readonly file: string | undefined;
  /** What is wrong, without the location prefix. */
  readonly reason: string;
  /** The 1-based line in `file` the problem is on, when known (YAML syntax errors). */
  readonly line: number | undefined;
  /**
   * The definition's other problems, each of which alone would not stop it loading (a
   * misspelt key that is ignored): reported with the fatal one, so fixing that one does not
   * reveal them one at a time.
   */
  readonly warnings: readonly string[];

  /**
   * @param where - how to name the definition in the message (its file, or a label)
   * @param reason - what is wrong
   */
  constructor(where: string, reason: string, options: { file?: string; line?: number; warnings?: readonly string[] } = {}) {
    super(`${where}: ${reason}`);
    this.file = options.file;
    this.reason = reason;
    this.line = options.line;
    this.warnings = Object.freeze([...(options.warnings ?? [])]);
  }
}
