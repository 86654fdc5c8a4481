import { lstat } from 'node:fs/promises';
import { basename, join } from 'node:path';
import type { SessionFolder } from './session-folder.js';
import type { TaskSessionInfo } from './session-store.js';
import { errnoOf } from '../errors/errno-of.js';
import { GENERATED_SESSION_ID, GENERATED_TASK_ID } from './session-id.js';
import { sessionFileName } from './session-file-name.js';

/**
 * Reads the text of the task file named `name` as its seal allows (`TaskSeal.read`): the task
 * info only when sealed for this folder (or there is no key to check with), `'unsealed'` or
 * `undefined` otherwise; throws (`UnsealedSessionError`, `what: 'one-shot-task-file'`) for a
 * one-shot run's task's task file put back. A function, not the class, so that this file and
 * `task-seal.ts` (which reads {@link isOneShotTaskInfo}) do not import each other.
 */
export type ReadTaskFile = (text: string, name: string) => Promise<TaskSessionInfo | 'unsealed' | undefined>;

/**
 * Whether the files of `sessionId` in `folder` are those of a task a one-shot run (a run
 * without a `sessionId`) delegated, told by what is present:
 *
 * - the session's own id: the form `TaskRunner` gives a task it starts (`GENERATED_TASK_ID`,
 *   `task_` and a random UUID), which every one-shot run's task has (such a run owns no earlier
 *   task to resume). Any other id is no one-shot run's task, whatever a file beside says;
 * - its task file (`<id>.task.json`) as `readTask` finds it, when its seal checks: a one-shot
 *   run's names as its conversation an id of the form the engine gives such a run
 *   (`GENERATED_SESSION_ID`) with no transcript in the folder (such a run stores none), see
 *   {@link isOneShotTaskInfo}; a sealed task file naming another conversation says it is not.
 *   One whose seal fails but reads as a one-shot run's (`readTask` throws) is that run's, put
 *   back after its delete or read by another process: it says so too;
 * - no task file its seal vouches for (none, one that cannot be read, planted or changed,
 *   another task's copied under its name, no task info): a task whose files are left without
 *   the task file written first and removed with them. Nothing can resume it (`loadTaskInfo`
 *   refuses or finds no task), so sealing its lines would keep nothing usable: it is taken as
 *   a one-shot run's, whose task files the engine removes as the run ends.
 *
 * Such a task session is sealed for a lifetime kept only in the process that ran it
 * (`EphemeralLifetimes`), so its files never load anywhere else, nor once deleted: what a
 * refusal of them says, rather than advising `--trust-session`, and `trustUnsealed` refuses it.
 *
 * Why a planted file changes nothing that matters: the id checked first is the one being
 * loaded, which the user (or the engine) chose, never a file's contents: a conversation's id
 * is `ses_<uuid>` or the name a user gave it, never of the task form unless a user names a
 * conversation so. Only a sealed task file, which the store alone writes, can make a task
 * session read as a conversation's task (the usual refusal, advising `--trust-session`); a
 * planted one is no task file, so a task of the task form without a sealed one reads as a
 * one-shot run's, which refuses more (its lines fail their seals already, and without its own
 * sealed task file it cannot be resumed anyway). Nor can anything here make a file load: this
 * only chooses the wording of a refusal and refuses sealing. Without a usable key task files
 * are read unchecked (`TaskSeal`), as they are written.
 *
 * @example
 * ```ts
 * if (await isOneShotTask(folder, 'task_3b241101-e2bb-4255-8caf-4136c566a962', (text, name) => taskSeal.read(text, name))) throw new UnsealedSessionError(id, file, lines, 'one-shot-task');
 * ```
 */
export async function isOneShotTask(folder: SessionFolder, sessionId: string, readTask: ReadTaskFile): Promise<boolean> {
  if (!GENERATED_TASK_ID.test(sessionId)) return false;
  const file = folder.file(sessionId, 'task');
  let info: TaskSessionInfo | 'unsealed' | undefined;
  try {
    info = await readTask(await folder.read(file), basename(file));
  } catch {
    // Thrown for a one-shot run's task file put back (`'one-shot-task-file'`); any other
    // failure (none, unreadable, a seal that cannot be checked) leaves no task file vouched
    // for: either way a one-shot run's. Never the history's refusal, which this only words.
    return true;
  }
  if (info === 'unsealed' || info === undefined) return true;
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
