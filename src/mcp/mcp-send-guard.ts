import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';

/** How many messages to a server may wait for it to take them (its stdin full, an HTTP post unanswered); one more closes the connection. */
export const MCP_UNSENT_MAX = 1_000;

/** How {@link guardedSends} hands messages to the transport. */
export interface SendGuardOptions {
  /**
   * One message at a time, in order: each waits until the transport has taken the one before.
   * For stdio, whose `send` adds a `drain` listener to the server's stdin for every message
   * that finds it full (a ping flood had hundreds on one socket, and node warned of a leak:
   * `MaxListenersExceededWarning`); not for HTTP, whose `send` lasts until the server
   * answers a request, so one slow call would hold back every other message.
   */
  readonly oneAtATime: boolean;
}

/**
 * Bounds what waits to reach a server: past {@link MCP_UNSENT_MAX} messages sent and not yet
 * taken, `giveUp` is told why, once (the connection should then be closed). The SDK answers each
 * request a server makes (a `ping`), and a send that cannot go out yet is kept in memory
 * until it can: a server sending pings as fast as it could and never reading its stdin grew
 * the engine by 100 MB a second. With `oneAtATime`, at most one message waits on the
 * transport; the others wait in order in this guard, and fail at once when the connection
 * closes (a stdin that closed full never says `drain`). Changes `transport` in place (its
 * `send`, `close` and `onclose`), before a client connects it.
 *
 * @example
 * ```ts
 * guardedSends(transport, (why) => void transport.close(), { oneAtATime: true });
 * ```
 */
export function guardedSends(transport: Transport, giveUp: (problem: string) => void, options: SendGuardOptions): void {
  const send = transport.send.bind(transport);
  const closed = closeWatch(transport);
  let unsent = 0;
  let gaveUp = false;
  // The last message handed on, settled or not: the next one waits for it.
  let last: Promise<void> = Promise.resolve();
  transport.send = async (message, sendOptions) => {
    // Told once: every send of a flood past the bound would close the connection again.
    if (++unsent > MCP_UNSENT_MAX && !gaveUp) {
      gaveUp = true;
      giveUp(`it did not take the last ${MCP_UNSENT_MAX} messages rxharness sent it`);
    }
    try {
      if (!options.oneAtATime) return await send(message, sendOptions);
      const mine = last.then(() => closed.unlessClosed(() => send(message, sendOptions)));
      last = mine.catch(() => undefined);
      return await mine;
    } finally {
      unsent--;
    }
  };
}

/** What closing `transport` ends: the one send waiting on it. */
interface CloseWatch {
  /** `send()`, failing at once when the transport is closed or closes before it settles. */
  unlessClosed(send: () => Promise<void>): Promise<void>;
}

/** Watches `transport` close (we close it, or it closes by itself); changes its `close` and `onclose`. */
function closeWatch(transport: Transport): CloseWatch {
  let closed = false;
  // At most one send waits at a time: it is the one to fail when the transport closes.
  let failWaiting: (() => void) | undefined;
  const onClosed = (): void => {
    closed = true;
    failWaiting?.();
  };
  const close = transport.close.bind(transport);
  transport.close = () => {
    onClosed();
    return close();
  };
  // A client connecting the transport calls an `onclose` set before it, then its own.
  const onclose = transport.onclose;
  transport.onclose = () => {
    onClosed();
    onclose?.();
  };
  return {
    unlessClosed: (send) =>
      new Promise<void>((resolve, reject) => {
        if (closed) return reject(notSent());
        const fail = (): void => reject(notSent());
        failWaiting = fail;
        const done = (): void => {
          if (failWaiting === fail) failWaiting = undefined;
        };
        send().then(resolve, reject).finally(done);
      }),
  };
}

function notSent(): Error {
  return new Error('the connection closed before this message went out');
}
