import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';

/**
 * How many notifications a server may send within {@link MCP_NOTIFICATION_WINDOW_MS}; one more
 * closes the connection. Far above what reporting needs (a burst of thousands of
 * `tools/list_changed` is survived, coalesced), yet the SDK reading them as JSON-RPC then
 * costs a tenth of a core or so at most: past it, a server floods rather than reports.
 */
export const MCP_NOTIFICATIONS_MAX = 10_000;

/**
 * How many requests (`ping`, or any other method: the client answers each, if only to say it
 * has no such method) a server may send within {@link MCP_NOTIFICATION_WINDOW_MS}; one more
 * closes the connection. Lower than {@link MCP_NOTIFICATIONS_MAX}: each costs an answer
 * written back as well as a read. A server pings to see that we are there, once every few
 * seconds; a thousand a second is no liveness check but a flood.
 */
export const MCP_SERVER_REQUESTS_MAX = 1_000;

/** The window {@link MCP_NOTIFICATIONS_MAX} and {@link MCP_SERVER_REQUESTS_MAX} count over. */
export const MCP_NOTIFICATION_WINDOW_MS = 1_000;

/**
 * The notifications a connection acts on, all others dropped before the SDK's client sees them:
 * a changed tool list (listed again, coalesced). Progress is not asked for (no call sends a
 * progress token), so the SDK would only report each as an error; log messages and resource
 * updates have no handler.
 */
export const MCP_NOTIFICATIONS_USED: ReadonlySet<string> = new Set(['notifications/tools/list_changed']);

/**
 * Bounds what a server's own messages cost: each notification is looked at for its `method`
 * only, those not in {@link MCP_NOTIFICATIONS_USED} are dropped there (the SDK's client would
 * check each against its schema, and report each progress notification it did not ask for as
 * an error holding it as JSON). Past {@link MCP_NOTIFICATIONS_MAX} notifications, or
 * {@link MCP_SERVER_REQUESTS_MAX} requests (pings: the SDK answers every one, so a server
 * reading its answers could keep us parsing and writing as fast as it liked, unseen by a
 * bound on notifications alone), within one {@link MCP_NOTIFICATION_WINDOW_MS} window,
 * `giveUp` is told why, once (the connection should then be closed), and nothing more of it
 * reaches the client, not even an answer (so a call in flight fails, saying why, when the
 * connection has closed, rather than answering or not as its server's timing goes).
 * Unguarded, 50,000 notifications sent during one call all went through the client's
 * handlers, and each list_changed among them asked for another listing while the flood
 * lasted. Answers to our own requests pass untouched: they are bounded by what we send.
 * Changes `transport` in place (its `start`, which wraps the `onmessage` a client sets just
 * before it), before a client connects it.
 *
 * @example
 * ```ts
 * guardedNotifications(transport, (why) => void transport.close());
 * await client.connect(transport);
 * ```
 */
export function guardedNotifications(transport: Transport, giveUp: (problem: string) => void): void {
  const start = transport.start.bind(transport);
  const admit = serverMessageBudget(giveUp);
  transport.start = () => {
    const onmessage = transport.onmessage;
    transport.onmessage = (message, extra) => {
      if (admit(message)) onmessage?.(message, extra);
    };
    return start();
  };
}

/** Whether a message goes on to the client: any answer; a request, or a notification the client uses, while the server keeps to the rates. */
function serverMessageBudget(giveUp: (problem: string) => void): (message: JSONRPCMessage) => boolean {
  let windowStart = Number.NEGATIVE_INFINITY;
  let notifications = 0;
  let requests = 0;
  let gaveUp = false;
  const stop = (problem: string): false => {
    gaveUp = true;
    giveUp(problem);
    return false;
  };
  return (message) => {
    // Given up on, the server is being closed: an answer still coming would race the close.
    if (gaveUp) return false;
    // An answer has an id and no method; a request has both; a notification a method only.
    if (!('method' in message)) return true;
    const now = Date.now();
    if (now - windowStart >= MCP_NOTIFICATION_WINDOW_MS) {
      windowStart = now;
      notifications = requests = 0;
    }
    const seconds = MCP_NOTIFICATION_WINDOW_MS / 1000;
    if ('id' in message) {
      if (++requests > MCP_SERVER_REQUESTS_MAX) return stop(`it sent more than ${MCP_SERVER_REQUESTS_MAX} requests (such as ping) within ${seconds} s`);
      return true;
    }
    if (++notifications > MCP_NOTIFICATIONS_MAX) return stop(`it sent more than ${MCP_NOTIFICATIONS_MAX} notifications within ${seconds} s`);
    return MCP_NOTIFICATIONS_USED.has(message.method);
  };
}
