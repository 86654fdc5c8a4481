/**
 * How an engine's copy of the waiting background results follows the results channel: each
 * message read (`readResultMessage`) and applied (`applyResultMessage`), those that are none
 * skipped and said at most once a minute (`listenReporting`). After its subscriber connection
 * dropped, what Redis holds is read again (`reloadResults`).
 *
 * @module
 */
import type { Redis } from 'ioredis';
import type { TaskInfo } from '../delegation/task-tracker.js';
import { resultKey } from '../delegation/undelivered-results.js';
import { applyResultMessage, type ResultsState } from './apply-result-message.js';
import type { ChannelHub } from './channel-hub.js';
import { GoneChecks } from './gone-checks.js';
import { listenReporting } from './listen-reporting.js';
import { loadWaitingResults, readResultFate, readWaitingResultAt } from './load-waiting-results.js';
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
  const onResubscribed = (): void => void reloadResults(redis, keys, state).catch(() => undefined); // Redis away: the copy stays
  return listenReporting(hub, keys.resultsChannel, RESULTS_SKIPPED, readResultMessage, (message) => applyResultMessage(state, message), { onResubscribed });
}

/**
 * Reads again what the results channel may have announced while it was not subscribed: the
 * results waiting (added unless taken, as a `put` read back is), the notes (each read back,
 * as a message has them), and the fate of each held result Redis no longer holds: forgotten
 * when Redis records it taken or dropped and the copy still holds it as it was (a message
 * may have changed it meanwhile, and decides then); one Redis knows nothing of (this engine's
 * own put still on its way, or failed: still delivered here) is kept.
 */
async function reloadResults(redis: Redis, keys: RedisKeys, state: ResultsState): Promise<void> {
  const before = state.mirror.all();
  const found = new Set<string>();
  const notes = new Set(state.notes.sessions());
  const sink = {
    result: (info: TaskInfo): void => {
      found.add(resultKey(info));
      state.mirror.add(info);
    },
    note: (sessionId: string): void => void notes.add(sessionId),
  };
  await loadWaitingResults(redis, keys, sink);
  for (const sessionId of notes) state.notes.refresh(sessionId);
  // Redis failing again: the result stays held (as at any failed read), never an unhandled rejection.
  for (const info of before) if (!found.has(resultKey(info))) forgetIfGone(state, info).catch(() => undefined);
}

/** Forgets a held result Redis records taken or dropped, unless the copy changed it meanwhile. */
async function forgetIfGone(state: ResultsState, info: TaskInfo): Promise<void> {
  const key = resultKey(info);
  if ((await state.fate(info.sessionId, key)) !== 'gone') return;
  if (!state.mirror.of(info.sessionId).includes(info)) return;
  state.mirror.remove(info.sessionId, key);
  state.mirror.markTaken(key, info.sessionId);
}
