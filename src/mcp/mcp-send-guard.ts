import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';

/** How many messages to a server may wait for it to take them (its stdin full, an HTTP post unanswered); one more closes the connection. */
export const MCP_UNSENT_MAX = 1_000;

/**
 * Bounds what waits to reach a server: past {@link MCP_UNSENT_MAX} messages sent and not yet
 * taken, `giveUp` is told why, once (the connection should then be closed). The SDK answers each
 * request a server makes (a `ping`), and a send that cannot go out yet is kept in memory
 * until it can: a server sending pings as fast as it could and never reading its stdin grew
 * the engine by 100 MB a second, with a `drain` listener per answer. Changes `transport` in
 * place (its `send`), before a client connects it.
 *
 * @example
 * ```ts
 * guardedSends(transport, (why) => void transport.close());
 * ```
 */
export function guardedSends(transport: Transport, giveUp: (problem: string) => void): void {
  const send = transport.send.bind(transport);
  let unsent = 0;
  let gaveUp = false;
  transport.send = async (message, options) => {
    // Told once: every send of a flood past the bound would close the connection again.
    if (++unsent > MCP_UNSENT_MAX && !gaveUp) {
      gaveUp = true;
      giveUp(`it did not take the last ${MCP_UNSENT_MAX} messages rxharness sent it`);
    }
    try {
      return await send(message, options);
    } finally {
      unsent--;
    }
  };
}
