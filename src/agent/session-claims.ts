import type { SessionClaim } from '../session/session-claim.js';
import type { MaybePromise, SessionStore } from '../session/session-store.js';
import { SessionBusyError } from './session-busy-error.js';

/** A session held by a run of this process: which run, and what resolves once it gives it up. */
interface Holder {
  readonly runId: string;
  readonly released: Promise<void>;
}

/** For each store, the sessions a run of this process is using now, and by which run. */
const active = new WeakMap<SessionStore, Map<string, Holder>>();

/** A session claimed for one run: held here at once, held in the store once it says so. */
export interface SessionHold {
  /** Gives the session up, here and in the store (once granted). Releasing twice is harmless. */
  release(): void;
  /**
   * Calls `start` once the store granted its claim ({@link SessionStore.claim}; synchronously
   * when the store answers synchronously, or has no `claim`), or `fail` with a
   * {@link SessionBusyError} (another run holds it, maybe in another process) or the store's
   * error. Neither is called after `release`.
   */
  whenHeld(start: () => void, fail: (error: unknown) => void): void;
}

/**
 * Claims a session of a store for one run: first in this process (synchronously: a second
 * run of the session here throws {@link SessionBusyError} at once), then through the store's
 * own `claim` when it has one, which is what holds across processes (the Redis store's lease).
 * Keyed by the store object, so every agent sharing a store (an engine's whole tree) shares
 * the claims.
 *
 * @example
 * ```ts
 * const hold = claimSession(store, 'ses_1', run.runId);
 * hold.whenHeld(() => startTheRun(), (e) => fail(e));
 * // ...at the run's end:
 * hold.release();
 * ```
 */
export function claimSession(store: SessionStore, sessionId: string, runId: string): SessionHold {
  let claims = active.get(store);
  if (!claims) active.set(store, (claims = new Map()));
  const holder = claims.get(sessionId);
  if (holder !== undefined) throw new SessionBusyError(sessionId, holder.runId);
  let resolve!: () => void;
  const mine: Holder = { runId, released: new Promise<void>((r) => (resolve = r)) };
  claims.set(sessionId, mine);
  let released = false;
  let granted: (() => void) | undefined;
  return {
    release: () => {
      if (released) return;
      released = true;
      try {
        granted?.();
      } finally {
        // Whatever the store's release did: a wait on this run (`whenReleased`) must not hang.
        if (claims.get(sessionId) === mine) claims.delete(sessionId);
        resolve();
      }
    },
    whenHeld(start, fail) {
      const settle = (claim: SessionClaim | undefined): void => {
        if (released) return claim?.granted ? claim.release() : undefined;
        if (claim && !claim.granted) return fail(new SessionBusyError(sessionId, claim.owner));
        if (claim?.granted) granted = () => claim.release();
        start();
      };
      let answer: SessionClaim | Promise<SessionClaim> | undefined;
      try {
        answer = store.claim?.(sessionId, runId);
      } catch (e) {
        return fail(e);
      }
      const failLive = (e: unknown): void => (released ? undefined : fail(e));
      if (answer instanceof Promise) answer.then(settle, failLive).catch(failLive);
      else settle(answer);
    },
  };
}

/**
 * Resolves once no run of this process holds `sessionId` of `store` any more (at once when
 * none does now): a cancelled run gives its session up only after its unfinished turn is
 * closed in it, a little after its cancel, and whoever stops it (the engine's `close()`, a
 * conversation's delete) must not return before.
 *
 * @example
 * ```ts
 * tracker.cancel(taskId);
 * await whenReleased(store, taskId); // its turn is closed, its claim given up
 * ```
 */
export function whenReleased(store: SessionStore, sessionId: string): Promise<void> {
  return active.get(store)?.get(sessionId)?.released ?? Promise.resolve();
}

/**
 * Runs `work` with the session claimed for `owner` (see {@link claimSession}), and gives the
 * session up once `work` has settled: what must not happen under a run of the session (its
 * deletion, a manual compaction). Synchronous when the store's claim and `work` are.
 *
 * @throws SessionBusyError when a run holds the session (here at once, or as the store answers).
 */
export function whileClaimed<T>(store: SessionStore, sessionId: string, owner: string, work: () => MaybePromise<T>): MaybePromise<T> {
  type Outcome = { readonly value: MaybePromise<T> } | { readonly error: unknown };
  const hold = claimSession(store, sessionId, owner);
  let now: Outcome | undefined;
  let later: ((outcome: Outcome) => void) | undefined;
  const done = (outcome: Outcome): void => (later ? later(outcome) : void (now = outcome));
  const finish = (outcome: Outcome): MaybePromise<T> => {
    if ('error' in outcome) {
      hold.release();
      throw outcome.error;
    }
    if (outcome.value instanceof Promise) return outcome.value.finally(hold.release);
    hold.release();
    return outcome.value;
  };
  hold.whenHeld(
    () => {
      try {
        done({ value: work() });
      } catch (error) {
        done({ error });
      }
    },
    (error) => done({ error }),
  );
  return now ? finish(now) : new Promise<Outcome>((resolve) => (later = resolve)).then(finish);
}
