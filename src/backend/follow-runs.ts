/**
 * How an engine's copy of the shared runs (`RedisSharedRuns`) comes to be and keeps current:
 * it listens on the runs channel (each message read by `readRunMessage`, applied by
 * `applyRunMessage`, those that are none said at most once a minute), then loads the records
 * the runs hash holds, so an engine started later knows the runs already there. After its
 * subscriber connection dropped, it reads them again (`reloadRuns`).
 *
 * @module
 */
import type { ChannelHub } from './channel-hub.js';
import { GoneChecks } from './gone-checks.js';
import { listenReporting } from './listen-reporting.js';
import { loadRunRecords } from './run-records.js';
import { readRunMessage, RUNS_SKIPPED } from './run-message.js';
import { applyRunMessage, type RunMessage, type RunsChannelState } from './runs-channel.js';

/**
 * Follows the runs channel into `copy`, then loads the runs Redis keeps into its records
 * (skipping those that are no record). Resolves with the stop, which lets go of the channel
 * and ends every answer still waiting for a verdict (false: none comes any more). Rejects
 * when the subscription or the load fails, having let go of the channel first.
 *
 * @internal
 */
export async function followRuns(hub: ChannelHub, copy: Omit<RunsChannelState, 'checks'>): Promise<() => void> {
  // The forgets being read back are this listener's own: one set for every message it applies.
  const state: RunsChannelState = { ...copy, checks: new GoneChecks() };
  const apply = (message: RunMessage): void => applyRunMessage(state, message);
  const unlisten = await listenReporting(hub, state.keys.runsChannel, RUNS_SKIPPED, readRunMessage, apply, { onResubscribed: () => reloadRuns(state) });
  const stop = (): void => {
    unlisten();
    // No verdict comes any more. Over a copy: each settle takes itself out of the map.
    for (const settle of [...state.verdicts.values()]) settle(false);
  };
  try {
    await loadRunRecords(state);
  } catch (e) {
    // Nobody gets the stop of a create that failed: left, the channel's handler (and its
    // subscription) would be held until the hub closes.
    stop();
    throw e;
  }
  return stop;
}

/**
 * What the copy may have missed while the channel was not subscribed, read again from Redis:
 * the records (`loadRunRecords`), the cancels of our running runs (their markers), and the
 * verdicts our answers wait for. Each goes the way its message goes, which only says where to
 * look: read back, none is applied twice. Redis failing, the copy stays as it is.
 */
function reloadRuns(state: RunsChannelState): void {
  loadRunRecords(state).catch(() => undefined);
  for (const runId of state.own) if (state.records.get(runId)?.info.state === 'running') applyRunMessage(state, { op: 'cancel', runId });
  for (const requestId of [...state.verdicts.keys()]) applyRunMessage(state, { op: 'answered', requestId, ok: false });
}
