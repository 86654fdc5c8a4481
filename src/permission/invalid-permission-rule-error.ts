import { hasErrorMarker, RxHarnessError } from '../errors/rxharness-error.js';

const MARKER = 'rxharness.error.InvalidPermissionRuleError';
const SYMBOL = Symbol.for(MARKER);

/**
 * Thrown by `parsePermissionRules` when a rule list is malformed. The message names where
 * the rules came from, the index of the bad rule and what is wrong with it.
 */
export class InvalidPermissionRuleError extends RxHarnessError {
  private readonly [SYMBOL] = true;
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
      'INVALID_PERMISSION_RULE',
      index === undefined
        ? `Invalid permission rules in ${where}: ${problem}`
        : `Invalid permission rule in ${where} at index ${index}: ${problem}`,
    );
  }

  /** Whether `value` is a {@link InvalidPermissionRuleError}, from this copy of the library or another. */
  static override isInstance(value: unknown): value is InvalidPermissionRuleError {
    return hasErrorMarker(value, MARKER);
  }
}
