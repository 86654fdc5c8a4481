import { lstat } from 'node:fs/promises';
import type { SessionFolder } from './session-folder.js';
import { errnoOf } from '../errors/errno-of.js';
import { GENERATED_SESSION_ID } from './session-id.js';
import { taskSessionInfoOf } from './task-session-info.js';


/**
 * Whether the files of `sessionId` in `folder` are those of a task a one-shot run (a run
 * without a `sessionId`) delegated: its task file (`<id>.task.json`, read as it is, whatever
 * its seal) names this task, and as its conversation an id of the form the engine gives such
 * a run, which has no transcript in the folder (such a run stores none). Such a task session
 * is sealed for a lifetime kept only in the process that ran it (`EphemeralLifetimes`), so its
 * files never load anywhere else, nor once deleted: what a refusal of them says, rather than
 * advising `--trust-session` (no one names such a session). A file that cannot be read or is
 * no task info says nothing: `false`.
 *
 * Read only to word a refusal and to refuse sealing: a planted task file can make a session
 * be called a one-shot task's, which only refuses more (its lines fail their seals already).
 *
 * @example
 * ```ts
 * if (await isOneShotTask(folder, 'task_1')) throw new UnsealedSessionError('task_1', file, lines, 'one-shot-task');
 * ```
 */
export async function isOneShotTask(folder: SessionFolder, sessionId: string): Promise<boolean> {
  const text = await folder.read(folder.file(sessionId, 'task')).catch(() => undefined);
  const info = text === undefined ? undefined : taskSessionInfoOf(parsed(text));
  if (info?.taskId !== sessionId || !GENERATED_SESSION_ID.test(info.ownerSessionId)) return false;
  // A conversation that stored its transcript is no one-shot run's, whatever its id looks like.
  return lstat(folder.file(info.ownerSessionId, 'messages')).then(
    () => false,
    (e: unknown) => errnoOf(e) === 'ENOENT',
  );
}

function parsed(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}
