/** The most conversations of one store whose settled starts are kept: the least recently asked goes first. */
const CONVERSATIONS = 256;
/** The most settled starts kept for one conversation: the oldest go first, and are read again at a later prompt. */
const PER_CONVERSATION = 1000;
// The engine's task ids are 41 characters (`newTaskId`): a longer id (a history written by
// hand) is not kept, so a forged megabyte id costs no memory; it is read at each prompt.
const LONGEST_KEPT = 64;

/** Per store (the one witness of which task is whose), each conversation's settled starts, the least recently asked first. */
const byStore = new WeakMap<object, Map<string, Set<string>>>();

/** The starts of one conversation's history known never to be told to it ({@link settledStarts}). */
export interface SettledStarts {
  /** Whether `taskId`'s start was settled: no need to read its task info again. */
  has(taskId: string): boolean;
  /** Settles `taskId`'s start: the store said its task is not the conversation's (another's, or its task info is gone). */
  add(taskId: string): void;
}

/**
 * The starts of `sessionId`'s history that `store` said are not the conversation's tasks (their
 * task info names another owner, or is gone with the task's session): neither ever changes, as
 * a task's owner is saved before it starts and stays, so each needs its task info read once,
 * not at every prompt of the conversation for good. Kept in this process for each store
 * object, bounded: 256 conversations of 1,000 starts each at most (the least recently asked
 * conversation, the oldest start go first); one forgotten is read again, as before it was settled.
 *
 * @example
 * ```ts
 * const settled = settledStarts(engine.sessions, 'chat');
 * if (!settled.has('task_1')) settled.add('task_1'); // its task info named another owner
 * ```
 */
export function settledStarts(store: object, sessionId: string): SettledStarts {
  let conversations = byStore.get(store);
  if (!conversations) byStore.set(store, (conversations = new Map()));
  const known = conversations.get(sessionId);
  if (known) {
    // asked again: the most recently asked, the last the bound drops
    conversations.delete(sessionId);
    conversations.set(sessionId, known);
  }
  const all = conversations;
  return {
    has: (taskId) => all.get(sessionId)?.has(taskId) ?? false,
    add(taskId) {
      if (taskId.length > LONGEST_KEPT) return;
      let ids = all.get(sessionId);
      if (!ids) {
        all.set(sessionId, (ids = new Set()));
        if (all.size > CONVERSATIONS) all.delete(all.keys().next().value!);
      }
      // A copy: a match is a slice of its history message, which it would keep alive.
      ids.add([...taskId].join(''));
      if (ids.size > PER_CONVERSATION) ids.delete(ids.values().next().value!);
    },
  };
}
