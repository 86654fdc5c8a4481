import { lstat } from 'node:fs/promises';
import { join } from 'node:path';
import type { SessionFolder } from './session-folder.js';
import type { TaskSessionInfo } from './session-store.js';
import { errnoOf } from '../errors/errno-of.js';
import { GENERATED_SESSION_ID, GENERATED_TASK_ID } from './session-id.js';
import { sessionFileName } from './session-file-name.js';
import { parsedTaskFile } from './task-file-text.js';

/**
 * Whether the files of `sessionId` in `folder` are those of a task a one-shot run (a run
 * without a `sessionId`) delegated, told by what is present:
 *
 * - the session's own id: the form `TaskRunner` gives a task it starts (`GENERATED_TASK_ID`,
 *   `task_` and a random UUID), which every one-shot run's task has (such a run owns no earlier
 *   task to resume). Any other id is no one-shot run's task, whatever a file beside says;
 * - its task file (`<id>.task.json`, read as it is, whatever its seal) when it names this task:
 *   a one-shot run's names as its conversation an id of the form the engine gives such a run
 *   (`GENERATED_SESSION_ID`) with no transcript in the folder (such a run stores none), see
 *   {@link isOneShotTaskInfo}; a task file naming another conversation says it is not;
 * - no task file naming this task (none, one that cannot be read, another task's copied under
 *   its name, no task info): a task whose files are left without the task file written first
 *   and removed with them. Nothing can resume it (`loadTaskInfo` finds no task), so sealing its
 *   lines would keep nothing usable: it is taken as a one-shot run's, whose task files the
 *   engine removes as the run ends.
 *
 * Such a task session is sealed for a lifetime kept only in the process that ran it
 * (`EphemeralLifetimes`), so its files never load anywhere else, nor once deleted: what a
 * refusal of them says, rather than advising `--trust-session`, and `trustUnsealed` refuses it.
 *
 * Why this cannot be forged into refusing a `--trust-session` of a real conversation: the id
 * checked first is the one being loaded, which the user (or the engine) chose, never a file's
 * contents: a conversation's id is `ses_<uuid>` or the name a user gave it, never of the task
 * form unless a user names a conversation so. A planted task file can only name a task id of
 * that form, i.e. a task session, which then refuses more (its lines fail their seals already,
 * and without its own sealed task file it cannot be resumed anyway). Nor can it make anything
 * load: this only chooses the wording of a refusal and refuses sealing. What it cannot tell
 * without checking the task file's seal: a planted task file naming a conversation with a
 * transcript as the owner of a one-shot run's task makes that task read as the conversation's
 * (the usual refusal, advising `--trust-session`).
 *
 * @example
 * ```ts
 * if (await isOneShotTask(folder, 'task_3b241101-e2bb-4255-8caf-4136c566a962')) throw new UnsealedSessionError(id, file, lines, 'one-shot-task');
 * ```
 */
export async function isOneShotTask(folder: SessionFolder, sessionId: string): Promise<boolean> {
  if (!GENERATED_TASK_ID.test(sessionId)) return false;
  const text = await folder.read(folder.file(sessionId, 'task')).catch(() => undefined);
  const info = text === undefined ? undefined : parsedTaskFile(text)?.info;
  if (info?.taskId !== sessionId) return true;
  return isOneShotTaskInfo(folder.dir, info);
}

/**
 * Whether the task info `info`, read from a task file in the folder `dir`, is that of a task a
 * one-shot run delegated: its task id of the form `TaskRunner` gives (`GENERATED_TASK_ID`), its
 * conversation of the form the engine gives a run without a `sessionId` (`GENERATED_SESSION_ID`),
 * and that conversation without a transcript in `dir` (a one-shot run stores none; one that
 * stored its transcript is no one-shot run's, whatever its id looks like). Read to word a
 * refusal only (see {@link isOneShotTask}).
 *
 * @example
 * ```ts
 * await isOneShotTaskInfo(dir, { taskId: 'task_<uuid>', agentName: 'beta', description: 'scan', ownerSessionId: 'ses_<uuid>' });
 * ```
 */
export async function isOneShotTaskInfo(dir: string, info: TaskSessionInfo): Promise<boolean> {
  if (!GENERATED_TASK_ID.test(info.taskId) || !GENERATED_SESSION_ID.test(info.ownerSessionId)) return false;
  return lstat(join(dir, sessionFileName(info.ownerSessionId, 'messages'))).then(
    () => false,
    (e: unknown) => errnoOf(e) === 'ENOENT',
  );
}
