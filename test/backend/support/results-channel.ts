/**
 * The shared steps of the tests that forge messages on the results channel
 * (`<prefix>:results-events`): settling engines' copies after a publish, a result delivered on
 * one engine while another launched it, and a conversation holding one waiting result and a note
 * of one dropped.
 *
 * @module
 */
import { expect } from 'vitest';
import type { RedisBackend } from '../../../src/backend/redis-backend.js';
import { publishResult, SharedResults } from '../../../src/backend/shared-results.js';
import type { TaskInfo } from '../../../src/delegation/task-tracker.js';
import { caughtUp, type ScaleKit, waitFor } from '../scale-kit.js';

/**
 * The messages published before it applied, and the fates they had read (and read again)
 * applied too: three rounds of {@link caughtUp} over every backend.
 */
export async function settled(...backends: RedisBackend[]): Promise<void> {
  for (let i = 0; i < 3; i++) for (const backend of backends) await caughtUp(backend);
}

/** Two backends of one kit and a SharedResults copy on each; `a` is the launching engine's. */
export interface TwoCopies {
  readonly one: RedisBackend;
  readonly two: RedisBackend;
  readonly a: Awaited<ReturnType<typeof SharedResults.create>>;
  readonly b: Awaited<ReturnType<typeof SharedResults.create>>;
  /** Stops both copies. */
  stop(): void;
}

/** Starts {@link TwoCopies} on two new backends of `k`. */
export async function twoCopies(k: ScaleKit): Promise<TwoCopies> {
  const [one, two] = [await k.backend(), await k.backend()];
  const a = await SharedResults.create(one.parts.redis, one.parts.keys, one.parts.hub); // the launching engine
  const b = await SharedResults.create(two.parts.redis, two.parts.keys, two.parts.hub);
  return { one, two, a, b, stop: () => (a.stop(), b.stop()) };
}

/**
 * The worker puts `info`, a prompt on engine `b` takes it, and engine `a` has checked the take
 * (Redis records it): what an attacker's word must not undo afterwards.
 */
export async function deliveredOnOther({ one, two, a, b }: TwoCopies, info: TaskInfo): Promise<void> {
  await publishResult(one.parts.redis, one.parts.keys, info); // the worker's put
  await settled(one, two);
  await waitFor(() => b.results.size === 1 && a.results.size === 1);
  expect(b.results.take(info.sessionId).map((r) => r.taskId)).toEqual([info.taskId]); // delivered on engine b
  await waitFor(() => a.results.size === 0);
  await settled(one, two); // engine a checked the take: Redis records it
}

/**
 * With the waiting bound of one result written (by a tracker made with `undeliveredResults: 1`),
 * publishes `older` then `newer` of one conversation: `older` is dropped and the conversation
 * gets a note of it. Returns once every backend has caught up.
 */
export async function oneWaitingOneDropped(backends: readonly RedisBackend[], older: TaskInfo, newer: TaskInfo): Promise<void> {
  const { redis, keys } = backends[0]!.parts;
  await waitFor(async () => (await redis.get(keys.waitingBound)) !== null);
  await publishResult(redis, keys, older);
  await publishResult(redis, keys, newer);
  await waitFor(async () => (await redis.get(keys.droppedResults(newer.sessionId))) !== null);
  for (const backend of [...backends, ...backends]) await caughtUp(backend);
}
