/**
 * How an engine's copy of the waiting background results follows the results channel: each
 * message read (`readResultMessage`) and applied (`applyResultMessage`), those that are none
 * skipped and said at most once a minute (`listenReporting`).
 *
 * @module
 */
import type { Redis } from 'ioredis';
import type { TaskInfo } from '../delegation/task-tracker.js';
import { applyResultMessage, type ResultsState } from './apply-result-message.js';
import type { ChannelHub } from './channel-hub.js';
import { GoneChecks } from './gone-checks.js';
import { listenReporting } from './listen-reporting.js';
import { readResultFate, readWaitingResultAt } from './load-waiting-results.js';
import type { RedisKeys } from './redis-keys.js';
import { readResultMessage } from './result-message.js';

/** What skipping a results-channel message means, as its warning says. @internal */
export const RESULTS_SKIPPED = 'No waiting background result or note of dropped ones was changed for it';

/**
 * Listens on the results channel for a copy (its mirror, notes and the name of its own
 * messages), reading what a message announces back from Redis; resolves with the stop (which
 * also closes the channel's warnings), rejects when the subscription fails.
 *
 * @internal
 */
export async function followResults(redis: Redis, keys: RedisKeys, hub: ChannelHub, copy: Pick<ResultsState, 'mirror' | 'notes' | 'origin'>): Promise<() => void> {
  const stored = (sessionId: string, key: string): Promise<TaskInfo | undefined> => readWaitingResultAt(redis, keys, sessionId, key);
  const fate = (sessionId: string, key: string): Promise<TaskInfo | 'gone' | 'failed' | undefined> => readResultFate(redis, keys, sessionId, key);
  const state: ResultsState = { ...copy, stored, fate, checks: new GoneChecks() };
  return listenReporting(hub, keys.resultsChannel, RESULTS_SKIPPED, readResultMessage, (message) => applyResultMessage(state, message));
}
