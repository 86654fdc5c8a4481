import { randomBytes } from 'node:crypto';

/**
 * A session's lifetime as its seals bind it: how many times it was deleted
 * (`ConversationLifetimes`), or, for a task session of a run without a `sessionId`, a random
 * text kept only in this process ({@link EphemeralLifetimes}). A text never equals a count
 * in a seal's facts (their JSON differs), so neither passes for the other.
 */
export type Lifetime = number | string;

/**
 * The lifetimes of the task sessions of runs without a `sessionId` (ephemeral runs), kept in
 * this process only, so that deleting them writes no lifetime file (nor a never-forgotten
 * entry for a key given in code): the engine deletes each such task session as its run ends
 * (`ephemeralTaskSessions`), and a server answering one-shot calls that delegate would
 * otherwise leave one lifetime file per task for ever.
 *
 * Why no deleted file can load again: from its task file on (saved before the task's first
 * message or grant, `TaskRunner`), every seal of such a task session (task file, messages,
 * archive, grants) binds a random text of 16 bytes made for it here, never written anywhere.
 * Its delete forgets the text instead of counting a delete, so its files, kept aside and put
 * back (or read after a restart), can be checked against nothing: each fails its seal and is
 * refused as unsealed (a count would have read 0 again and passed them). The text lives while
 * the task session does; a task session whose delete never comes (the process ends first)
 * keeps one entry until then, its files refused by the next process.
 *
 * Process-wide, as the engine knows only the store's interface and every store of a folder
 * in the process must seal alike; keyed by the folder's real path and the session id, as
 * `ConversationLifetimes` is. A task session saved for a conversation that is no ephemeral
 * run's (or in another process: a worker) gets none and is counted as before.
 */
export class EphemeralLifetimes {
  /** The conversations of the ephemeral runs that may still start tasks. */
  private readonly owners = new Set<string>();
  /** The random lifetime of each of their task sessions still stored, by `[folder, id]`. */
  private readonly tasks = new Map<string, string>();

  /**
   * Notes `ownerSessionId` as an ephemeral run's conversation, as the run starts (before any
   * task of it is saved), until {@link close}, when none of its tasks runs any more.
   */
  open(ownerSessionId: string): void {
    this.owners.add(ownerSessionId);
  }

  /** Forgets `ownerSessionId` as an ephemeral run's (its task sessions keep their lifetimes until deleted). */
  close(ownerSessionId: string): void {
    this.owners.delete(ownerSessionId);
  }

  /**
   * Gives the task session `taskId` in `folder` a random lifetime when `ownerSessionId` is an
   * ephemeral run's and it has none yet: called as its task file is sealed, its first write.
   */
  adopt(folder: string, taskId: string, ownerSessionId: string): void {
    const key = JSON.stringify([folder, taskId]);
    if (this.owners.has(ownerSessionId) && !this.tasks.has(key)) this.tasks.set(key, randomBytes(16).toString('hex'));
  }

  /** The random lifetime of the session, when it is an ephemeral run's task session still stored. */
  of(folder: string, sessionId: string): string | undefined {
    return this.tasks.get(JSON.stringify([folder, sessionId]));
  }

  /** Forgets the session's random lifetime (its delete, before its files go); answers it, `undefined` when it had none. */
  end(folder: string, sessionId: string): string | undefined {
    const key = JSON.stringify([folder, sessionId]);
    const ended = this.tasks.get(key);
    this.tasks.delete(key);
    return ended;
  }
}

/** The lifetimes of this process's ephemeral runs' task sessions, shared by every store and engine. */
export const ephemeralLifetimes = new EphemeralLifetimes();
