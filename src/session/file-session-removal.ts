import pLimit from 'p-limit';
import { isTaskRecord, type SettleDelete } from './deleted-conversations.js';
import type { Lifetime } from './ephemeral-lifetimes.js';
import type { FileSessionParts } from './file-session-parts.js';
import { NotRegularFileError } from './not-regular-file-error.js';
import { removeSurveyedFiles, surveyConfinedFiles, type FoundFile } from './remove-confined-files.js';
import { SESSION_FILE_SUFFIXES, type SessionFileKind } from './session-file-name.js';

/** Every kind of a session's files, the grants first (see {@link FileSessionRemoval.removeNow}). */
const KINDS = (Object.keys(SESSION_FILE_SUFFIXES) as SessionFileKind[]).sort((a, b) => Number(b === 'grants') - Number(a === 'grants'));
/** Where the task file is among a session's files ({@link KINDS}). */
const TASK = KINDS.indexOf('task');

/** How many task sessions a conversation's delete removes at once (each in its own queue). */
const TASK_REMOVALS_AT_ONCE = 16;

/** A session's files, and what {@link surveyConfinedFiles} found under each name. */
interface SurveyedFiles {
  readonly sessionId: string;
  readonly files: readonly string[];
  readonly found: readonly FoundFile[];
}

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
   * Checks the way to the session's files (blocked, the delete fails having written and
   * removed nothing), ends its lifetime, then removes its files, then its tasks' (a few at a
   * time, each in its queue, checked and its lifetime ended first; a task's removal that fails
   * fails the delete once the others ended, the first in the tasks' order); a
   * {@link NotRegularFileError} names a folder planted under a name, left; then the error of a lifetime that could not be ended, if any (the files go
   * all the same). `settle` is told, in the delete's turn, what task file the session had
   * (`DeletedConversations`): a task session's delete is no conversation's.
   */
  async delete(sessionId: string, settle: SettleDelete): Promise<void> {
    const { queues, tasks } = this.parts;
    const turn = await queues.enqueue(sessionId, async () => {
      // The way checked before anything is written: a blocked one ends no lifetime (under the
      // path of a file where the folder should be), and the delete fails having done nothing.
      const surveyed = await this.survey(sessionId).catch((e: unknown) => {
        settle(undefined);
        throw e;
      });
      // Read before the lifetime ends (the task file's seal binds it) and the files go; a file
      // that is no task file this store sealed (planted, changed, put back, unreadable) says
      // nothing: the delete stays a conversation's. No task file, nothing to read.
      const record = surveyed.found[TASK] === 'absent' ? undefined : await tasks.load(sessionId).catch(() => undefined);
      settle(record);
      const ended = await this.ending(sessionId);
      const files = await this.removeNow(surveyed);
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
    // A few at a time: one by one, a conversation of 10,000 tasks took minutes to delete.
    const limit = pLimit(TASK_REMOVALS_AT_ONCE);
    const removals = await Promise.allSettled(owned.map((taskId) => limit(() => this.removeFiles(taskId))));
    let unrecorded = turn.unrecorded;
    // Read in the tasks' order, every removal ended: the same error names the same task as one by one.
    for (const removal of removals) {
      if (removal.status === 'rejected') throw removal.reason;
      left.push(...removal.value.left);
      unrecorded ??= removal.value.unrecorded;
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
      const surveyed = await this.survey(sessionId);
      const { unrecorded } = await this.ending(sessionId);
      return { left: await this.removeNow(surveyed), unrecorded };
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

  /**
   * The session's files, their way checked and what each name holds found, nothing changed
   * (`surveyConfinedFiles`): throws when the way is blocked, before any lifetime ends.
   */
  private async survey(sessionId: string): Promise<SurveyedFiles> {
    const files = KINDS.map((kind) => this.parts.folder.file(sessionId, kind));
    return { sessionId, files, found: await surveyConfinedFiles(this.parts.folder.root, files) };
  }

  /** Removes the surveyed files (what was found under each name), forgetting them first; answers the folders left under their names. */
  private async removeNow({ sessionId, files, found }: SurveyedFiles): Promise<string[]> {
    const { folder, summaries, lines, history } = this.parts;
    summaries.forget(sessionId);
    // The grants first (KINDS): a delete stopped on the way (a file that cannot be removed)
    // must not leave the "always" approvals to a later conversation of the id.
    for (const file of files) {
      lines.forget(file);
      history.forget(file);
    }
    return removeSurveyedFiles(folder.root, files, found);
  }
}
