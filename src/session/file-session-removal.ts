import { isTaskRecord, type SettleDelete } from './deleted-conversations.js';
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
   * @param endLifetime - ends a task session's lifetime (`FileSessionStore`'s, as for the
   * conversation) in its queue, just before its files go: kept aside and put back, they then
   * grant, load and own nothing.
   */
  constructor(
    private readonly parts: Pick<FileSessionParts, 'folder' | 'queues' | 'tasks' | 'summaries' | 'lines' | 'history'>,
    private readonly endLifetime: (sessionId: string) => Promise<void> = async () => {},
  ) {}

  /**
   * Removes the session's files, then its tasks'; a {@link NotRegularFileError} names a folder
   * planted under a name, left. `settle` is told, in the delete's turn, what task file the
   * session had (`DeletedConversations`): a task session's delete is no conversation's.
   */
  async delete(sessionId: string, settle: SettleDelete): Promise<void> {
    const { queues, tasks } = this.parts;
    const { left, owned } = await queues.enqueue(sessionId, async () => {
      // Read before the files go; a file that is no task file this store sealed (planted,
      // changed, unreadable) says nothing: the delete stays a conversation's.
      const record = await tasks.load(sessionId).catch(() => undefined);
      settle(record);
      const files = await this.removeNow(sessionId);
      // A task session owns no tasks: its delete reads no other task file (an ephemeral run
      // deletes each of its, some saved long before). Else asked once the files are gone: a
      // task whose save was asked before this delete counts.
      const started = tasks.takeStarted(sessionId);
      return { left: files, owned: started || isTaskRecord(sessionId, record) ? [] : await tasks.ownedBy(sessionId) };
    });
    // Each in its own queue, after the conversation's turn: no queue waits on another inside it.
    let unrecorded: unknown;
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
      // The files go even when the lifetime cannot be recorded; the delete then fails, saying why.
      const unrecorded = await this.endLifetime(sessionId).then(
        () => undefined,
        (error: unknown) => error ?? new Error(`the delete of task session "${sessionId}" could not be recorded`),
      );
      return { left: await this.removeNow(sessionId), unrecorded };
    });
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
