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
 * in the process must seal alike; keyed by the paths of the folder (`lifetimeFolders`: as the
 * store was opened, and its real path) and the session id, as `ConversationLifetimes` is: the
 * text is taken under every path it is sealed through, and a delete through either forgets
 * it under all of them, so a link on the way moved or retargeted during the delete (its real
 * path then another) leaves no text behind for the files once the link is back. A task
 * session saved for a conversation that is no ephemeral run's (or in another process: a
 * worker) gets none and is counted as before.
 */
export class EphemeralLifetimes {
  /** The conversations of the ephemeral runs that may still start tasks. */
  private readonly owners = new Set<string>();
  /** The random lifetime of each of their task sessions still stored, by `[folder path, id]`: one entry under each path it was taken through. */
  private readonly tasks = new Map<string, TaskLifetime>();

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
   * Gives the task session `taskId` a random lifetime when `ownerSessionId` is an ephemeral
   * run's and it has none yet under `folders` (the paths of its folder): called as its task
   * file is sealed, its first write. One it has is taken under every one of `folders`.
   */
  adopt(folders: readonly string[], taskId: string, ownerSessionId: string): void {
    const found = this.found(folders, taskId);
    const entry = found[0] ?? (this.owners.has(ownerSessionId) ? { text: randomBytes(16).toString('hex'), keys: new Set<string>() } : undefined);
    if (entry === undefined) return;
    for (const folder of folders) {
      const key = JSON.stringify([folder, taskId]);
      entry.keys.add(key);
      this.tasks.set(key, entry);
    }
  }

  /** The random lifetime of the session under one path of its folder, when it is an ephemeral run's task session still stored. */
  of(folder: string, sessionId: string): string | undefined {
    return this.tasks.get(JSON.stringify([folder, sessionId]))?.text;
  }

  /**
   * Forgets the session's random lifetime (its delete, before its files go) under every path
   * it was taken through, found through any of `folders`; answers it, `undefined` when it had none.
   */
  end(folders: readonly string[], sessionId: string): string | undefined {
    const found = this.found(folders, sessionId);
    for (const entry of found) for (const key of entry.keys) if (this.tasks.get(key) === entry) this.tasks.delete(key);
    return found[0]?.text;
  }

  /** The lifetimes the session has under `folders`, the first path's first (one, but for paths retargeted between stores). */
  private found(folders: readonly string[], sessionId: string): TaskLifetime[] {
    const entries = folders.map((folder) => this.tasks.get(JSON.stringify([folder, sessionId])));
    return [...new Set(entries.filter((entry) => entry !== undefined))];
  }
}

/** A task session's random lifetime and the keys it is kept under (every one goes with its delete). */
interface TaskLifetime {
  readonly text: string;
  readonly keys: Set<string>;
}

/** The lifetimes of this process's ephemeral runs' task sessions, shared by every store and engine. */
export const ephemeralLifetimes = new EphemeralLifetimes();
