import { isTaskRecord, type SettleDelete } from './deleted-conversations.js';
import type { Lifetime } from './ephemeral-lifetimes.js';
import type { FileSessionParts } from './file-session-parts.js';
import { NotRegularFileError } from './not-regular-file-error.js';
import { removeConfinedFiles } from './remove-confined-files.js';
import { SESSION_FILE_SUFFIXES, type SessionFileKind } from './session-file-name.js';

/** Every kind of a session's files, the grants first (see {@link FileSessionRemoval.removeNow}). */
const KINDS = (Object.keys(SESSION_FILE_SUFFIXES) as SessionFileKind[]).sort((a, b) => Number(b === 'grants') - Number(a === 'grants'));

/**
 * How a `FileSessionStore` deletes a session: its files and its tasks', each session's in its
 * own write queue (see `FileSessionStore.delete`). Apart from the store because it reaches
 * every part (the queues, the task files, the summaries, the appenders' and the history's memory).
 */
export class FileSessionRemoval {
  /**
   * @param endLifetime - ends a session's lifetime (`FileSessionStore`'s), the conversation's
   * and each of its tasks', in its queue, just before its files go: kept aside and put back,
   * they then grant, load and own nothing. Answers the lifetime that ended (`undefined` when
   * nothing is sealed, so none ended).
   */
  constructor(
    private readonly parts: Pick<FileSessionParts, 'folder' | 'queues' | 'tasks' | 'summaries' | 'lines' | 'history'>,
    private readonly endLifetime: (sessionId: string) => Promise<Lifetime | undefined> = async () => undefined,
  ) {}

  /**
   * Ends the session's lifetime, then removes its files, then its tasks' (each in its queue,
   * its lifetime ended first); a {@link NotRegularFileError} names a folder planted under a
   * name, left; then the error of a lifetime that could not be ended, if any (the files go
   * all the same). `settle` is told, in the delete's turn, what task file the session had
   * (`DeletedConversations`): a task session's delete is no conversation's.
   */
  async delete(sessionId: string, settle: SettleDelete): Promise<void> {
    const { queues, tasks } = this.parts;
    const turn = await queues.enqueue(sessionId, async () => {
      // Read before the lifetime ends (the task file's seal binds it) and the files go; a file
      // that is no task file this store sealed (planted, changed, put back, unreadable) says
      // nothing: the delete stays a conversation's.
      const record = await tasks.load(sessionId).catch(() => undefined);
      settle(record);
      const ended = await this.ending(sessionId);
      const files = await this.removeNow(sessionId);
      // A task session owns no tasks: its delete reads no other task file (an ephemeral run
      // deletes each of its, some saved long before). Else asked once the files are gone: a
      // task whose save was asked before this delete counts; its file is sealed for the
      // lifetime that just ended.
      const started = tasks.takeStarted(sessionId);
      const owned = started || isTaskRecord(sessionId, record) ? [] : await tasks.ownedBy(sessionId, ended.lifetime);
      return { left: files, owned, unrecorded: ended.unrecorded };
    });
    const { left, owned } = turn;
    // Each in its own queue, after the conversation's turn: no queue waits on another inside it.
    let unrecorded = turn.unrecorded;
    for (const taskId of owned) {
      const removed = await this.removeFiles(taskId);
      left.push(...removed.left);
      unrecorded ??= removed.unrecorded;
    }
    if (left[0] !== undefined) throw new NotRegularFileError(left[0], 'directory');
    if (unrecorded !== undefined) throw unrecorded;
  }

  /**
   * Removes one task session's files in its queue, its lifetime ended first: after the writes
   * asked before (appends, a task file saved), before those asked after, which then make the
   * session anew. Answers the folders planted under their names, left, and why its lifetime
   * could not be ended, if so.
   */
  private removeFiles(sessionId: string): Promise<{ left: string[]; unrecorded: unknown }> {
    return this.parts.queues.enqueue(sessionId, async () => {
      const { unrecorded } = await this.ending(sessionId);
      return { left: await this.removeNow(sessionId), unrecorded };
    });
  }

  /**
   * Ends the session's lifetime: the lifetime that ended, or why it could not be recorded
   * (the files go all the same; the delete then fails, saying why).
   */
  private ending(sessionId: string): Promise<{ lifetime?: Lifetime; unrecorded?: unknown }> {
    return this.endLifetime(sessionId).then(
      (lifetime) => ({ lifetime }),
      (error: unknown) => ({ unrecorded: error ?? new Error(`the delete of session "${sessionId}" could not be recorded`) }),
    );
  }

  private async removeNow(sessionId: string): Promise<string[]> {
    const { folder, summaries, lines, history } = this.parts;
    summaries.forget(sessionId);
    // The grants first: a delete stopped on the way (a file that cannot be removed) must not
    // leave the "always" approvals to a later conversation of the id.
    const files = KINDS.map((kind) => folder.file(sessionId, kind));
    for (const file of files) {
      lines.forget(file);
      history.forget(file);
    }
    return removeConfinedFiles(folder.root, files);
  }
}
