import { RxHarnessError } from '../errors/rxharness-error.js';

/**
 * A model request withdrawn before it was sent: it waited for a slot of the engine's request
 * limiter (`maxConcurrentRequests`), and the requests answered meanwhile spent the token
 * budget it had reserved from. Its run ends as a refused request's does; nothing was sent.
 *
 * @example
 * ```ts
 * new BudgetSpentError('the token budget is spent: 1200 of 1000 tokens used by this run and its tasks, so no further model request was made');
 * ```
 */
export class BudgetSpentError extends RxHarnessError {
  /** The code of these errors. */
  static override readonly code = 'BUDGET_SPENT';
  /** Always `BudgetSpentError`. */
  override readonly name = 'BudgetSpentError';

  constructor(message: string) {
    super(message);
  }
}
