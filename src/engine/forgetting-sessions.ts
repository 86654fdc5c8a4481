import { randomUUID } from 'node:crypto';
import { whileClaimed } from '../agent/session-claims.js';
import type { SessionClaim } from '../session/session-claim.js';
import type { ChatMessage } from '../model/chat-message.js';
import type { MaybePromise, SessionStore } from '../session/session-store.js';
import type { DeletedElsewhere } from './deleted-elsewhere.js';
import { deletedInProcess } from './deleted-in-process.js';

/**
 * The engine's view of its session store: the same store, whose `delete` (when it has one)
 * also forgets what the engine keeps of the conversation in memory (`forget`: its "always"
 * approvals and its undelivered background results) before the store deletes it, so also
 * when the store's delete then fails (a folder planted under one of its file names): the
 * user asked to delete, and a revoked grant only means asking again. Without that, a new
 * conversation reusing the id would run calls the deleted one approved "always" without
 * asking, and would read the deleted one's background results in its first prompt.
 * A conversation a run is writing is refused with `SessionBusyError` (the delete claims it).
 * Its background tasks still running are stopped first (`stopTasks`, which waits until they
 * have settled): one finishing after the delete would write its transcript back under its
 * task id, and hand its result to the deleted conversation.
 *
 * Every part of the engine (its tree, `engine.sessions`, the HTTP route `DELETE
 * /sessions/:id`) holds this view, never the store itself, so deleting through the engine
 * always forgets. A Proxy rather than a copy: the store's other methods, optional ones
 * included, stay exactly as present or absent as the store has them (the HTTP routes answer
 * `404` for a store without `list`), and each is called on the store itself (its private
 * fields). The store's own evictions (a `MemorySessionStore` past its bounds) do not go
 * through here: the engine's memory of a conversation is bounded on its own.
 *
 * With `elsewhere` (a store other engines may share), a granted claim first checks whether
 * another engine deleted the conversation, and a background task's write whether its
 * conversation is still there (`deletedElsewhere`): such a delete reaches only the store.
 * A `MemorySessionStore` tells the view of each delete instead (`deletedInProcess`), whoever
 * made it: its background tasks of the conversation are stopped, and their results forgotten.
 *
 * @example
 * ```ts
 * const sessions = forgettingSessions(store, (id) => grants.clear(id), (id) => tasks.cancelAll({ backgroundOnly: true, sessionId: id }));
 * await sessions.delete?.('notes'); // its background tasks stop, its grants are cleared, then the store deletes it
 * ```
 */
export function forgettingSessions(
  store: SessionStore,
  forget: (sessionId: string) => void,
  stopTasks: (sessionId: string) => Promise<void> = async () => {},
  elsewhere?: DeletedElsewhere,
): SessionStore {
  const remove = store.delete;
  if (typeof remove !== 'function') return store;
  const inProcess = elsewhere ? undefined : deletedInProcess(store, stopTasks, forget);
  const guard = elsewhere ?? inProcess?.guard;
  const deleteHeld = async (sessionId: string): Promise<void> => {
    try {
      await stopTasks(sessionId);
    } finally {
      // Once its tasks have settled (a task still running could grant "always" again), and
      // before the store: a store that fails to delete must not leave the grants to a later
      // conversation of the id. A store holding its own grants removes them first too.
      forget(sessionId);
    }
    // Told of its own delete, the view would stop and forget again: it did just that.
    await (inProcess ? inProcess.own(sessionId, () => remove.call(store, sessionId)) : remove.call(store, sessionId));
  };
  // Claimed as a run claims it: a run still writing the conversation would bring back a part
  // of it, and its "always" answers, under the id a new conversation may take.
  // Its tasks are stopped under the claim too: no new run of it can start one meanwhile.
  const deleteAndForget = (sessionId: string): void | Promise<void> =>
    whileClaimed(view, sessionId, `delete_${randomUUID()}`, () => deleteHeld(sessionId));
  // Methods bound once each, not at every call (a run appends to its session at every step).
  const bound = new WeakMap<(...args: never[]) => unknown, unknown>();
  const guarded = guard ? guardedMethods(store, guard) : {};
  const view: SessionStore = new Proxy(store, {
    get(target, key) {
      if (key === 'delete') return deleteAndForget;
      if (typeof key === 'string' && Object.hasOwn(guarded, key)) return guarded[key as keyof typeof guarded];
      const value: unknown = Reflect.get(target, key, target);
      if (typeof value !== 'function') return value;
      const method = value as (...args: never[]) => unknown;
      let own = bound.get(method);
      if (own === undefined) bound.set(method, (own = method.bind(target)));
      return own;
    },
  });
  return view;
}

/** The store's `claim`, `append` and `replace` (those it has), each checked first by `elsewhere` (see `deletedElsewhere`). */
function guardedMethods(store: SessionStore, elsewhere: DeletedElsewhere): Partial<Pick<SessionStore, 'claim' | 'append' | 'replace'>> {
  const guarded: Partial<Pick<SessionStore, 'claim' | 'append' | 'replace'>> = {};
  const { claim, replace } = store;
  if (typeof claim === 'function') {
    guarded.claim = (sessionId, owner) => {
      const checkedClaim = (held: SessionClaim): MaybePromise<SessionClaim> => {
        if (!held.granted) return held;
        let check: MaybePromise<void>;
        try {
          check = elsewhere.claimed(sessionId);
        } catch (e) {
          held.release();
          throw e;
        }
        if (!(check instanceof Promise)) return held;
        return check.then(
          () => held,
          (e: unknown) => {
            held.release();
            throw e;
          },
        );
      };
      // A store answering synchronously (the memory store) is answered synchronously when nothing is checked.
      const answer = claim.call(store, sessionId, owner);
      return answer instanceof Promise ? answer.then(checkedClaim) : checkedClaim(answer);
    };
  }
  const checked =
    <A extends readonly ChatMessage[]>(write: (sessionId: string, messages: A) => MaybePromise<void>) =>
    (sessionId: string, messages: A): MaybePromise<void> => {
      const check = elsewhere.beforeWrite(sessionId);
      return check instanceof Promise ? check.then(() => write.call(store, sessionId, messages)) : write.call(store, sessionId, messages);
    };
  guarded.append = checked(store.append);
  if (typeof replace === 'function') guarded.replace = checked(replace);
  return guarded;
}
