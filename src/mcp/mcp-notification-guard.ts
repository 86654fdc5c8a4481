import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { lineBytesOf } from './mcp-stdio-lines.js';
import { MCP_UNASKED_BYTES_MAX, MCP_UNASKED_BYTES_WINDOW_MS, unaskedBytesWindow } from './mcp-byte-window.js';

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

/**
 * How many messages of no use a server may send within {@link MCP_NOTIFICATION_WINDOW_MS}:
 * lines the transport could not read as JSON-RPC (a stdio server printing to stdout), and
 * answers to no request of ours (an id never sent, or answered already); one more closes
 * the connection. The SDK reports each as an error it builds (an answer's error holds the
 * answer as JSON) and nobody reads: a server writing either as fast as it could held the
 * event loop all but still, for as long as it ran. A few stray lines are harmless, and
 * skipped.
 */
export const MCP_JUNK_MAX = 1_000;

/**
 * {@link MCP_JUNK_MAX} before the server's first answer: many servers log a banner (or a
 * dependency's chatter) to stdout as they start, before they answer `initialize`. Still a
 * bound: a server pouring junk before it ever answers is closed too.
 */
export const MCP_JUNK_MAX_AT_START = 10_000;

/** The window {@link MCP_NOTIFICATIONS_MAX}, {@link MCP_SERVER_REQUESTS_MAX} and {@link MCP_JUNK_MAX} count over. */
export const MCP_NOTIFICATION_WINDOW_MS = 1_000;

export { MCP_UNASKED_BYTES_MAX, MCP_UNASKED_BYTES_WINDOW_MS } from './mcp-byte-window.js';

/**
 * The longest id (in characters) of a request a server sends; a longer one closes the
 * connection. The answer echoes the id, and waits in memory while the server reads nothing:
 * pings with 5 MiB ids from a server that had stopped reading ran the engine out of memory.
 * A JSON-RPC id is a number or a short string.
 */
export const MCP_REQUEST_ID_MAX_CHARS = 512;

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
 * lasted. Answers to our own requests pass untouched: they are bounded by what we send;
 * an answer to no request of ours (its id never sent, or answered already) is dropped, and
 * counted with the lines the transport could not read against {@link MCP_JUNK_MAX}.
 * Whatever a stdio server writes that answers no request of ours is also counted in bytes,
 * against {@link MCP_UNASKED_BYTES_MAX}, and a request whose id is over
 * {@link MCP_REQUEST_ID_MAX_CHARS} characters closes the connection too.
 * Changes `transport` in place (its `send`, and its `start`, which wraps the `onmessage` and
 * `onerror` a client sets just before it), before a client connects it.
 *
 * @example
 * ```ts
 * guardedNotifications(transport, (why) => void transport.close());
 * await client.connect(transport);
 * ```
 */
export function guardedNotifications(transport: Transport, giveUp: (problem: string) => void): void {
  const start = transport.start.bind(transport);
  const awaited = awaitedAnswers(transport);
  const budget = serverMessageBudget(giveUp);
  transport.start = () => {
    const onmessage = transport.onmessage;
    transport.onmessage = (message, extra) => {
      if (budget.admit(message, awaited)) onmessage?.(message, extra);
    };
    // Called by the transport for each line it could not read as JSON-RPC (and for its own failures).
    const onerror = transport.onerror;
    transport.onerror = (error) => {
      if (budget.junk(error)) onerror?.(error);
    };
    return start();
  };
}

/**
 * The ids of our requests not yet answered, kept by wrapping `transport.send`: `take(id)` is
 * true, once, for each. A request we cancel (`notifications/cancelled`) is forgotten, so the
 * set holds only what may still be answered. Ids are compared as numbers, as the SDK does.
 */
function awaitedAnswers(transport: Transport): { take(id: unknown): boolean } {
  const waiting = new Set<number>();
  const send = transport.send.bind(transport);
  transport.send = (message, options) => {
    if ('method' in message && 'id' in message) waiting.add(Number(message.id));
    else if ('method' in message && message.method === 'notifications/cancelled') waiting.delete(Number(message.params?.['requestId']));
    return send(message, options);
  };
  return { take: (id) => waiting.delete(Number(id)) };
}

/** What a server's messages may cost, counted over one window. */
interface Budget {
  /** Whether a message goes on to the client: an answer awaited; a request, or a notification the client uses, while the server keeps to the rates. */
  admit(message: JSONRPCMessage, awaited: { take(id: unknown): boolean }): boolean;
  /** Counts a message of no use (an unreadable line, its error); whether it may still be reported. */
  junk(error: Error): boolean;
}

function serverMessageBudget(giveUp: (problem: string) => void): Budget {
  let windowStart = Number.NEGATIVE_INFINITY;
  let notifications = 0;
  let requests = 0;
  let junk = 0;
  let answered = false;
  let gaveUp = false;
  const stop = (problem: string): false => {
    gaveUp = true;
    giveUp(problem);
    return false;
  };
  const seconds = MCP_NOTIFICATION_WINDOW_MS / 1000;
  const withinBytes = unaskedBytesWindow();
  // The bytes of the line `value` came in (0 for what came otherwise: HTTP, a failure).
  const countBytes = (value: object): boolean => {
    const size = lineBytesOf(value);
    if (size === 0 || withinBytes(size)) return true;
    return stop(
      `it wrote more than ${MCP_UNASKED_BYTES_MAX / 1024 / 1024} MiB that answered no request of ours (notifications, requests, lines that were not JSON-RPC) within ${MCP_UNASKED_BYTES_WINDOW_MS / 1000} s`,
    );
  };
  const window = (): void => {
    const now = Date.now();
    if (now - windowStart < MCP_NOTIFICATION_WINDOW_MS) return;
    windowStart = now;
    notifications = requests = junk = 0;
  };
  const countJunk = (): boolean => {
    window();
    const most = answered ? MCP_JUNK_MAX : MCP_JUNK_MAX_AT_START;
    if (++junk <= most) return true;
    return stop(`it sent more than ${most} lines that were not JSON-RPC, or answers to no request of ours, within ${seconds} s`);
  };
  const admit = (message: JSONRPCMessage, awaited: { take(id: unknown): boolean }): boolean => {
    // Given up on, the server is being closed: an answer still coming would race the close.
    if (gaveUp) return false;
    // An answer has an id and no method; a request has both; a notification a method only.
    // One to no request of ours the SDK would only report as an error: dropped, and counted.
    if (!('method' in message)) {
      if (awaited.take(message.id)) return (answered = true);
      if (countBytes(message)) countJunk();
      return false;
    }
    if (!countBytes(message)) return false;
    window();
    if ('id' in message) {
      if (typeof message.id === 'string' && message.id.length > MCP_REQUEST_ID_MAX_CHARS) {
        return stop(`it sent a request whose id is ${message.id.length} characters long (the answer repeats it; rxharness takes ids of at most ${MCP_REQUEST_ID_MAX_CHARS})`);
      }
      if (++requests > MCP_SERVER_REQUESTS_MAX) return stop(`it sent more than ${MCP_SERVER_REQUESTS_MAX} requests (such as ping) within ${seconds} s`);
      return true;
    }
    if (++notifications > MCP_NOTIFICATIONS_MAX) return stop(`it sent more than ${MCP_NOTIFICATIONS_MAX} notifications within ${seconds} s`);
    return MCP_NOTIFICATIONS_USED.has(message.method);
  };
  return { admit, junk: (error) => !gaveUp && countBytes(error) && countJunk() };
}
