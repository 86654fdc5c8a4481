import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';

/**
 * How many notifications a server may send within {@link MCP_NOTIFICATION_WINDOW_MS}; one more
 * closes the connection. Far above what reporting needs (a burst of thousands of
 * `tools/list_changed` is survived, coalesced), yet the SDK reading them as JSON-RPC then
 * costs a tenth of a core or so at most: past it, a server floods rather than reports.
 */
export const MCP_NOTIFICATIONS_MAX = 10_000;

/** The window {@link MCP_NOTIFICATIONS_MAX} counts over. */
export const MCP_NOTIFICATION_WINDOW_MS = 1_000;

/**
 * The notifications a connection acts on, all others dropped before the SDK's client sees them:
 * a changed tool list (listed again, coalesced). Progress is not asked for (no call sends a
 * progress token), so the SDK would only report each as an error; log messages and resource
 * updates have no handler.
 */
export const MCP_NOTIFICATIONS_USED: ReadonlySet<string> = new Set(['notifications/tools/list_changed']);

/**
 * Bounds what a server's notifications cost: each is looked at for its `method` only, those
 * not in {@link MCP_NOTIFICATIONS_USED} are dropped there (the SDK's client would check each
 * against its schema, and report each progress notification it did not ask for as an error
 * holding it as JSON), and past {@link MCP_NOTIFICATIONS_MAX} within one
 * {@link MCP_NOTIFICATION_WINDOW_MS} window `giveUp` is told why, once (the connection should
 * then be closed), and nothing more of it reaches the client, not even an answer (so a call
 * in flight fails, saying why, when the connection has closed, rather than answering or
 * not as its server's timing goes). Unguarded, 50,000 sent during one call all went through
 * the client's handlers, and each list_changed among them asked for another listing while
 * the flood lasted. Until then requests and answers pass untouched. Changes `transport` in
 * place (its `start`, which wraps the `onmessage` a client sets just before it), before a
 * client connects it.
 *
 * @example
 * ```ts
 * guardedNotifications(transport, (why) => void transport.close());
 * await client.connect(transport);
 * ```
 */
export function guardedNotifications(transport: Transport, giveUp: (problem: string) => void): void {
  const start = transport.start.bind(transport);
  const admit = notificationBudget(giveUp);
  transport.start = () => {
    const onmessage = transport.onmessage;
    transport.onmessage = (message, extra) => {
      if (admit(message)) onmessage?.(message, extra);
    };
    return start();
  };
}

/** Whether a message goes on to the client: any request or answer; a notification the client uses while the server keeps to the rate. */
function notificationBudget(giveUp: (problem: string) => void): (message: JSONRPCMessage) => boolean {
  let windowStart = Number.NEGATIVE_INFINITY;
  let count = 0;
  let gaveUp = false;
  return (message) => {
    // Given up on, the server is being closed: an answer still coming would race the close.
    if (gaveUp) return false;
    // A notification is the message with a method and no id (a request has both).
    if (!('method' in message) || 'id' in message) return true;
    const now = Date.now();
    if (now - windowStart >= MCP_NOTIFICATION_WINDOW_MS) {
      windowStart = now;
      count = 0;
    }
    if (++count > MCP_NOTIFICATIONS_MAX) {
      gaveUp = true;
      giveUp(`it sent more than ${MCP_NOTIFICATIONS_MAX} notifications within ${MCP_NOTIFICATION_WINDOW_MS / 1000} s`);
      return false;
    }
    return MCP_NOTIFICATIONS_USED.has(message.method);
  };
}
