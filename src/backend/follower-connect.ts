/**
 * The follower's connection, made again when it drops (`CLIENT KILL`, a Redis restart, a
 * network blip): until Redis has been unreachable for `connectTimeoutMs`, the follower tries
 * again, so its readers read on instead of ending while their runs go on.
 *
 * @module
 */
import type { Redis } from 'ioredis';
import { errorMessage } from '../errors/error-message.js';
import type { FollowerTimes } from './follower-reader.js';
import type { Session } from './follower-session.js';
import { RedisBackendError } from './redis-backend-error.js';
import { duplicateOf, reconnectDelay } from './redis-connection.js';

/**
 * A new connection for the follower's `session`, tried again (after the backend's usual
 * reconnect delays) until `deadline` (`Date.now()`); undefined when the session closed
 * meanwhile. After a connection was `lost`, the first attempt waits the first delay too, as
 * ioredis does: a server that drops every connection is not asked again in a tight loop.
 *
 * The connection never reconnects by itself: a drop fails the `XREAD` in flight at once, and
 * the follower reads again on the next connection from where each reader stopped. (ioredis
 * sending the `XREAD` again by itself left the follower interrupting, with `CLIENT UNBLOCK`, a
 * client id that was gone, and failed it after a second refused attempt.)
 *
 * A silent partition (packets dropped, no FIN or RST) reports nothing: the `XREAD` would wait
 * for ever, and every reader with it. So a connection that sends nothing back for
 * `answerBoundMs` while a command waits is dropped (ioredis's `socketTimeout` destroys
 * the socket), which the follower takes as any drop. It is closed at once too
 * (`disconnectTimeout: 0`; ioredis waits 2 s for the peer's FIN by default): a connection to a
 * peer that went silent leaves no socket or timer behind the follower.
 *
 * @throws the last attempt's `RedisBackendError` ("cannot reach Redis at ...") past `deadline`.
 * @internal
 */
export async function followerConnection(redis: Redis, session: Session, times: FollowerTimes, deadline: number, lost: boolean): Promise<Redis | undefined> {
  const options = { retryStrategy: () => null, socketTimeout: answerBoundMs(times), disconnectTimeout: 0 };
  if (lost) await pause(session, reconnectDelay(1));
  for (let attempt = 1; ; attempt++) {
    if (session.closed) return undefined;
    try {
      const conn = await duplicateOf(redis, Math.max(1, deadline - Date.now()), options);
      if (!session.closed) return conn;
      conn.disconnect();
      return undefined;
    } catch (e) {
      if (session.closed) return undefined;
      if (Date.now() >= deadline) throw e;
      await pause(session, Math.min(reconnectDelay(attempt), deadline - Date.now()));
    }
  }
}

/**
 * How long the follower's connection may send nothing back while a command waits: the
 * `XREAD`'s `blockMs`, then `connectTimeoutMs` for the reply to come (a busy Redis answers
 * late, a partitioned one never). Past it the connection is taken as dropped.
 */
function answerBoundMs(times: FollowerTimes): number {
  return times.blockMs + times.connectTimeoutMs;
}

/**
 * Whether the failure of a command on `conn` was its connection's: the connection is no
 * longer ready (a reply of Redis, such as `NOPERM`, leaves it ready, and ends the readers).
 *
 * @internal
 */
export function connectionLost(conn: Redis | undefined): boolean {
  return conn === undefined || conn.status !== 'ready';
}

/**
 * The error a follower's readers end with when Redis stayed unreachable for `boundMs`
 * (`connectTimeoutMs`), at first or after its connection dropped: `last` is why the last
 * attempt failed.
 *
 * @internal
 */
export function unreachableError(runId: string, boundMs: number, last: unknown): RedisBackendError {
  return new RedisBackendError(
    `Redis was unreachable for ${boundMs} ms (connectTimeoutMs) while reading the event log of ${runId}: ${errorMessage(last)}. The run may go on elsewhere: attach to it again once Redis is reachable.`,
    { cause: last },
  );
}

/** Waits `ms`, or until the session closes (`#end` calls `session.stopPause`): no timer is left behind. */
function pause(session: Session, ms: number): Promise<void> {
  return new Promise((resolve) => {
    const done = (): void => {
      clearTimeout(timer);
      session.stopPause = undefined;
      resolve();
    };
    const timer = setTimeout(done, ms);
    session.stopPause = done;
  });
}
