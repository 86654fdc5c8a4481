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
 * Calls `onEnd` once the run is known to be over (ended, reaped or forgotten); returns the
 * way to stop watching. @internal
 */
export type RunEndWatch = (onEnd: () => void) => () => void;

/**
 * Offers an answer to the run's owner (answer-claim.ts) and waits for its verdict, which
 * `verdicts` receives under the request's id (from the runs channel, as Redis records it).
 * Resolves with it (false: another answer came first); rejects with `AnswerNotAppliedError`
 * when the owner did not claim it within `waitMs` (then it is withdrawn, never applied), or
 * claimed it and gave no verdict within a second wait. When `watchEnd` says the run is over
 * before the owner claimed it (its owner died and was reaped), the answer is withdrawn at
 * once and resolves false: nothing is pending any more, so a retry could not help. Its timers
 * are unref'd and cleared as it settles.
 *
 * @internal
 */
export function awaitVerdict(
  redis: Redis,
  keys: RedisKeys,
  verdicts: Map<string, (ok: boolean) => void>,
  offered: OfferedAnswer,
  waitMs: number,
  watchEnd: RunEndWatch = () => () => undefined,
): Promise<boolean> {
  const { runId, approvalId, requestId } = offered;
  return new Promise<boolean>((resolve, reject) => {
    let timer: NodeJS.Timeout;
    let withdrawing = false;
    let unwatch = (): void => undefined;
    const end = (): boolean => {
      clearTimeout(timer);
      unwatch();
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
    // `over`: the run is known to be over, so an answer taken back leaves nothing pending.
    const late = async (over: boolean): Promise<void> => {
      withdrawing = true;
      const state = await withdrawAnswer(redis, keys, requestId);
      const verdict = verdictOf(state);
      if (verdict !== undefined) return settle(verdict); // its message is on its way
      if (state !== 'claimed') return over ? settle(false) : notApplied('withdrawn', waitMs); // taken back, or never offered: never applied
      timer = setTimeout(() => void unconfirmed().catch(() => notApplied('unconfirmed', 2 * waitMs)), waitMs);
      timer.unref();
    };
    // Redis failing as it is withdrawn: whether the owner claimed it is not known.
    const withdraw = (over: boolean): void => void late(over).catch(() => notApplied('unconfirmed', waitMs));
    timer = setTimeout(() => withdraw(false), waitMs);
    timer.unref();
    verdicts.set(requestId, settle);
    // The run over before the wait ended: taken back now (once withdrawing, that decides).
    unwatch = watchEnd(() => {
      if (withdrawing) return;
      clearTimeout(timer);
      withdraw(true);
    });
    offerAnswer(redis, keys, requestId, offered.message).catch(() => undefined); // the wait withdraws it
  });
}
