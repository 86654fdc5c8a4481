import { RxHarnessError } from '../errors/rxharness-error.js';

/**
 * An answer to an approval of a run another instance owns did not reach it in time
 * (`runs.answer` on a backend): `withdrawn`, the answer was taken back atomically before the
 * owner claimed it, so it will never be applied (the approval is still pending unless another
 * answer decided it: send the answer again); `unconfirmed`, the owner claimed it but never
 * said whether it applied it (it stopped while applying it: the run's `HITLDecided` event, if
 * any, tells). Over HTTP it is a `504`. Not exported from the package entry (its runtime
 * exports are kept few): branch on its `code`, `ANSWER_NOT_APPLIED`.
 *
 * @example
 * ```ts
 * await engine.runs.answer(runId, approvalId, { decision: 'approve' }).catch((e: unknown) => {
 *   if (RxHarnessError.isInstance(e) && e.code === 'ANSWER_NOT_APPLIED') return retry();
 *   throw e;
 * });
 * ```
 */
export class AnswerNotAppliedError extends RxHarnessError {
  /** The code of these errors. */
  static override readonly code = 'ANSWER_NOT_APPLIED';
  /** Always `AnswerNotAppliedError`. */
  override readonly name = 'AnswerNotAppliedError';

  constructor(
    /** The run whose approval was answered. */
    readonly runId: string,
    /** The approval answered. */
    readonly approvalId: string,
    /** `withdrawn`: never applied. `unconfirmed`: claimed by the owner, whether applied is not known. */
    readonly outcome: 'withdrawn' | 'unconfirmed',
    /** How long the answer waited for the owner, in milliseconds. */
    readonly waitedMs: number,
  ) {
    super(
      outcome === 'withdrawn'
        ? `the answer to approval "${approvalId}" of run "${runId}" was withdrawn: the instance running the run did not take it within ${waitedMs} ms (it is busy, stopped or gone), so it will never be applied. Send it again if the approval is still pending.`
        : `the instance running run "${runId}" took the answer to approval "${approvalId}" but did not say within ${waitedMs} ms whether it applied it (it stopped while applying it): the run's events show whether the approval was decided (HITLDecided).`,
    );
  }
}
