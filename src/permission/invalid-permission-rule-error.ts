import { RxHarnessError } from '../errors/rxharness-error.js';

/**
 * Thrown by `parsePermissionRules` when a rule list is malformed. The message names where
 * the rules came from, the index of the bad rule and what is wrong with it.
 */
export class InvalidPermissionRuleError extends RxHarnessError {
  /** The code of these errors. */
  static override readonly code = 'INVALID_PERMISSION_RULE';
  /** Always `'InvalidPermissionRuleError'`, to recognise the error without `instanceof` (e.g. across package copies). */
  override readonly name = 'InvalidPermissionRuleError';

  /**
   * @param where - where the rules came from (a file, `engine options`, ...).
   * @param index - the index of the bad rule, or undefined when the list itself is bad.
   * @param problem - what is wrong, in words a user can act on.
   */
  constructor(
    readonly where: string,
    readonly index: number | undefined,
    readonly problem: string,
  ) {
    super(
      index === undefined
        ? `Invalid permission rules in ${where}: ${problem}`
        : `Invalid permission rule in ${where} at index ${index}: ${problem}`,
    );
  }
}
