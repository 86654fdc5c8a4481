/**
 * How a shared copy follows its channel: each message read, then applied or said as bad.
 *
 * @module
 */
import type { ChannelHub, ListenOptions } from './channel-hub.js';
import { badMessagesOn } from './channel-warnings.js';

/** A message as read: the one to apply, or why it is none. */
export type MessageRead<M> = { readonly message: M } | { readonly problem: string };

/**
 * Listens on `channel`: each message is read by `read`, then applied, or skipped and said at
 * most once a minute (`badMessagesOn`, `consequence` saying what skipping it means);
 * `options` go to the hub (`onResubscribed`: what to read again after a drop).
 * Resolves with the stop, which lets go of the warnings too; rejects when the subscription
 * fails, having let go of them (held for nothing, they would never be closed).
 *
 * @example
 * ```ts
 * const stop = await listenReporting(hub, keys.runsChannel, RUNS_SKIPPED, readRunMessage, (m) => applyRunMessage(state, m));
 * ```
 *
 * @internal
 */
export async function listenReporting<M>(
  hub: ChannelHub,
  channel: string,
  consequence: string,
  read: (text: string) => MessageRead<M>,
  apply: (message: M) => void,
  options: ListenOptions = {},
): Promise<() => void> {
  const bad = badMessagesOn(channel, consequence);
  const unlisten = await hub
    .listen(channel, (text) => {
      const got = read(text);
      if ('problem' in got) bad.report(got.problem, text);
      else apply(got.message);
    }, options)
    .catch((e: unknown) => {
      bad.release();
      throw e;
    });
  return () => {
    unlisten();
    bad.release();
  };
}
