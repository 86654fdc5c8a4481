import type { Redis } from 'ioredis';
import type { RedisKeys } from './redis-keys.js';

/**
 * Where an answer sent to another instance's run stands: `pending` until the owner claims
 * it, then `claimed` while the owner applies it, then `taken` or `refused` (another answer came
 * first); `withdrawn` when its sender took it back before the owner claimed it; `gone` when
 * Redis has no such answer (expired).
 *
 * @internal
 */
export type AnswerState = 'pending' | 'claimed' | 'taken' | 'refused' | 'withdrawn' | 'gone';

/** How long an answer's state is kept: far beyond any wait for it. */
const ANSWER_STATE_MS = 10 * 60_000;

// Claim and withdraw are one compare-and-set each: exactly one of the owner and the sender
// wins a pending answer, so an answer withdrawn is never applied, and one claimed never
// reported withdrawn.
const CLAIM = `if redis.call('GET', KEYS[1]) ~= 'pending' then return 0 end
redis.call('SET', KEYS[1], 'claimed', 'KEEPTTL')
return 1`;
const WITHDRAW = `local state = redis.call('GET', KEYS[1])
if state == 'pending' then redis.call('DEL', KEYS[1]) return 'withdrawn' end
return state or 'gone'`;

/** Records an answer as pending and publishes it on the runs channel, in one transaction. @internal */
export async function offerAnswer(redis: Redis, keys: RedisKeys, requestId: string, message: string): Promise<void> {
  await redis.multi().set(keys.answer(requestId), 'pending', 'PX', ANSWER_STATE_MS).publish(keys.runsChannel, message).exec();
}

/** The owner's claim of a pending answer: true when it may apply it (nobody withdrew it). @internal */
export async function claimAnswer(redis: Redis, keys: RedisKeys, requestId: string): Promise<boolean> {
  return (await redis.eval(CLAIM, 1, keys.answer(requestId))) === 1;
}

/** Records the owner's verdict on a claimed answer and publishes it (`verdict`, the runs channel message). @internal */
export async function settleAnswer(redis: Redis, keys: RedisKeys, requestId: string, taken: boolean, verdict: string): Promise<void> {
  await redis.multi().set(keys.answer(requestId), taken ? 'taken' : 'refused', 'PX', ANSWER_STATE_MS).publish(keys.runsChannel, verdict).exec();
}

/** The sender takes a pending answer back; resolves with the state it found (`withdrawn`: it did). @internal */
export async function withdrawAnswer(redis: Redis, keys: RedisKeys, requestId: string): Promise<AnswerState> {
  return (await redis.eval(WITHDRAW, 1, keys.answer(requestId))) as AnswerState;
}

/** The state of an answer now. @internal */
export async function answerState(redis: Redis, keys: RedisKeys, requestId: string): Promise<AnswerState> {
  return ((await redis.get(keys.answer(requestId))) ?? 'gone') as AnswerState;
}
