import type { Redis } from 'ioredis';
import { AnswerNotAppliedError } from '../runs/answer-not-applied-error.js';
import { answerState, offerAnswer, withdrawAnswer } from './answer-claim.js';
import type { RedisKeys } from './redis-keys.js';

/** An answer sent to another instance's run, as `RedisSharedRuns.answer` offers it. @internal */
export interface OfferedAnswer {
  readonly runId: string;
  readonly approvalId: string;
  readonly requestId: string;
  /** Its message on the runs channel. */
  readonly message: string;
}

/**
 * Offers an answer to the run's owner (answer-claim.ts) and waits for its verdict, which
 * `verdicts` receives under the request's id (from the runs channel, as Redis records it).
 * Resolves with it (false: another answer came first); rejects with `AnswerNotAppliedError`
 * when the owner did not claim it within `waitMs` (then it is withdrawn, never applied), or
 * claimed it and gave no verdict within a second wait. Its timers are unref'd and cleared
 * as it settles.
 *
 * @internal
 */
export function awaitVerdict(redis: Redis, keys: RedisKeys, verdicts: Map<string, (ok: boolean) => void>, offered: OfferedAnswer, waitMs: number): Promise<boolean> {
  const { runId, approvalId, requestId } = offered;
  return new Promise<boolean>((resolve, reject) => {
    let timer: NodeJS.Timeout;
    const end = (): boolean => {
      clearTimeout(timer);
      return verdicts.delete(requestId);
    };
    const settle = (ok: boolean): void => void (end() && resolve(ok));
    const notApplied = (outcome: 'withdrawn' | 'unconfirmed', waited: number): void => void (end() && reject(new AnswerNotAppliedError(runId, approvalId, outcome, waited)));
    const verdictOf = (state: string): boolean | undefined => (state === 'taken' ? true : state === 'refused' ? false : undefined);
    // The owner claimed it and is applying it: its verdict comes, else it stopped midway.
    const unconfirmed = async (): Promise<void> => {
      const verdict = verdictOf(await answerState(redis, keys, requestId));
      if (verdict === undefined) notApplied('unconfirmed', 2 * waitMs);
      else settle(verdict);
    };
    const late = async (): Promise<void> => {
      const state = await withdrawAnswer(redis, keys, requestId);
      const verdict = verdictOf(state);
      if (verdict !== undefined) return settle(verdict); // its message is on its way
      if (state !== 'claimed') return notApplied('withdrawn', waitMs); // taken back, or never offered: never applied
      timer = setTimeout(() => void unconfirmed().catch(() => notApplied('unconfirmed', 2 * waitMs)), waitMs);
      timer.unref();
    };
    // Redis failing as it is withdrawn: whether the owner claimed it is not known.
    timer = setTimeout(() => void late().catch(() => notApplied('unconfirmed', waitMs)), waitMs);
    timer.unref();
    verdicts.set(requestId, settle);
    offerAnswer(redis, keys, requestId, offered.message).catch(() => undefined); // the wait withdraws it
  });
}
