import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';

/** How many messages to a server may wait for it to take them (its stdin full, an HTTP post unanswered); one more closes the connection. */
export const MCP_UNSENT_MAX = 1_000;

/**
 * How many bytes (of their JSON) may wait for a server to take them; more closes the
 * connection. {@link MCP_UNSENT_MAX} alone counts messages: the answers to pings whose ids
 * were 5 MiB each waited until they filled the heap, long before a thousand did. One
 * message alone is never too much: the bound counts only while others wait before it.
 */
export const MCP_UNSENT_MAX_BYTES = 16 * 1024 * 1024;

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
 * Bounds what waits to reach a server: past {@link MCP_UNSENT_MAX} messages, or
 * {@link MCP_UNSENT_MAX_BYTES} bytes, sent and not yet taken, `giveUp` is told why, once
 * (the connection should then be closed; the sends it fails say why). The SDK answers each
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
  // Why we gave up, which the sends failed by the close then say.
  let gaveUp: string | undefined;
  const closed = closeWatch(transport, () => gaveUp);
  let unsent = 0;
  let unsentBytes = 0;
  // The last message handed on, settled or not: the next one waits for it.
  let last: Promise<void> = Promise.resolve();
  transport.send = async (message, sendOptions) => {
    // Measured as the transport writes it (its JSON): a second serialisation, of what is
    // mostly small; large only for a call's large arguments.
    const bytes = Buffer.byteLength(JSON.stringify(message));
    const behindOthers = unsent > 0;
    unsent++;
    unsentBytes += bytes;
    // Told once: every send of a flood past the bound would close the connection again.
    if (gaveUp === undefined && unsent > MCP_UNSENT_MAX) {
      giveUp((gaveUp = `it did not take the last ${MCP_UNSENT_MAX} messages rxharness sent it`));
    } else if (gaveUp === undefined && behindOthers && unsentBytes > MCP_UNSENT_MAX_BYTES) {
      giveUp((gaveUp = `it did not take the last ${MCP_UNSENT_MAX_BYTES / 1024 / 1024} MiB rxharness sent it (${unsent} messages)`));
    }
    try {
      if (!options.oneAtATime) return await send(message, sendOptions);
      const mine = last.then(() => closed.unlessClosed(() => send(message, sendOptions)));
      last = mine.catch(() => undefined);
      return await mine;
    } finally {
      unsent--;
      unsentBytes -= bytes;
    }
  };
}

/** What closing `transport` ends: the one send waiting on it. */
interface CloseWatch {
  /** `send()`, failing at once when the transport is closed or closes before it settles. */
  unlessClosed(send: () => Promise<void>): Promise<void>;
}

/** Watches `transport` close (we close it, or it closes by itself, `why()` says why when we gave up); changes its `close` and `onclose`. */
function closeWatch(transport: Transport, why: () => string | undefined): CloseWatch {
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
        if (closed) return reject(notSent(why()));
        const fail = (): void => reject(notSent(why()));
        failWaiting = fail;
        const done = (): void => {
          if (failWaiting === fail) failWaiting = undefined;
        };
        send().then(resolve, reject).finally(done);
      }),
  };
}

function notSent(problem: string | undefined): Error {
  const closed = problem === undefined ? 'the connection closed' : `rxharness closed the connection (${problem})`;
  return new Error(`${closed} before this message went out`);
}
